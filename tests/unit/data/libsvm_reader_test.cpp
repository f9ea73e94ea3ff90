#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "core/errors.hpp"
#include "data/generators/generator_registry.hpp"
#include "data/libsvm_reader.hpp"
#include "data/libsvm_writer.hpp"
#include "data/load.hpp"
#include "data/text_reader.hpp"
#include "core/sha256.hpp"
#include "test_files.hpp"

using namespace sparsesvm;
using sparsesvm::testing::write_file;

TEST_CASE("LIBSVM file: 1-based indices, comments, dense or sparse storage", "[loader][libsvm]") {
  const std::string path = write_file("small.libsvm",
                                      "# a comment line\n"
                                      "+1 1:0.5 3:-2 # trailing comment\n"
                                      "-1 2:1\n"
                                      "+1\n");
  data::LibsvmOptions options;
  options.storage = data::Storage::sparse;
  const core::Dataset sparse = data::read_libsvm(path, options);
  CHECK(sparse.is_sparse());
  CHECK(sparse.n() == 3);
  CHECK(sparse.d() == 3);
  CHECK(sparse.value(0, 2) == -2);
  CHECK(sparse.value(1, 1) == 1);
  CHECK(sparse.labels() == (core::Vector(3) << 1, -1, 1).finished());

  options.storage = data::Storage::dense;
  options.n_features = 5;
  const core::Dataset dense = data::read_libsvm(path, options);
  CHECK_FALSE(dense.is_sparse());
  CHECK(dense.d() == 5);
  CHECK(dense.value(0, 0) == 0.5);
}

TEST_CASE("LIBSVM labels: 0/1, named class vs rest, most frequent vs rest", "[loader][libsvm]") {
  const std::string binary = write_file("zero_one.libsvm", "0 1:1\n1 1:2\n");
  CHECK(data::read_libsvm(binary, {}).labels() == (core::Vector(2) << -1, 1).finished());

  const std::string multi = write_file("multi.libsvm", "3 1:1\n1 1:2\n2 1:3\n3 1:4\n");
  CHECK_THROWS_WITH(data::read_libsvm(multi, {}), Catch::Contains("3 distinct value(s)"));
  data::LibsvmOptions named;
  named.labels.positive = {"2"};
  CHECK(data::read_libsvm(multi, named).labels() == (core::Vector(4) << -1, -1, 1, -1).finished());
  data::LibsvmOptions frequent;
  frequent.labels.most_frequent = true;
  CHECK(data::read_libsvm(multi, frequent).labels() == (core::Vector(4) << 1, -1, -1, 1).finished());
}

TEST_CASE("malformed LIBSVM files give file:line:column errors", "[loader][libsvm]") {
  SECTION("indices out of order") {
    const std::string path = write_file("order.libsvm", "+1 1:1 3:1\n-1 3:1 2:1\n");
    CHECK_THROWS_WITH(data::read_libsvm(path, {}),
                      path + ":2:8: feature index 2 after index 3; indices must be strictly increasing");
  }
  SECTION("index zero") {
    const std::string path = write_file("zero.libsvm", "+1 0:1\n");
    CHECK_THROWS_WITH(data::read_libsvm(path, {}), Catch::StartsWith(path + ":1:4: expected a positive integer"));
  }
  SECTION("repeated index") {
    const std::string path = write_file("repeat.libsvm", "+1 2:1 2:3\n-1 1:1\n");
    CHECK_THROWS_WITH(data::read_libsvm(path, {}), Catch::Contains("feature index 2 after index 2"));
  }
  SECTION("missing value after the colon") {
    const std::string path = write_file("novalue.libsvm", "+1 2:\n-1 1:1\n");
    CHECK_THROWS_WITH(data::read_libsvm(path, {}), Catch::StartsWith(path + ":1:6: expected a number for feature 2"));
  }
  SECTION("no label") {
    const std::string path = write_file("nolabel.libsvm", "1:1 2:2\n");
    CHECK_THROWS_WITH(data::read_libsvm(path, {}), Catch::Contains("expected a class label first"));
  }
  SECTION("index beyond the declared width") {
    const std::string path = write_file("wide.libsvm", "+1 9:1\n-1 1:1\n");
    data::LibsvmOptions options;
    options.n_features = 4;
    CHECK_THROWS_WITH(data::read_libsvm(path, options), Catch::Contains("exceeds the declared number of features 4"));
  }
  SECTION("inf value") {
    const std::string path = write_file("inf.libsvm", "+1 1:inf\n-1 1:1\n");
    CHECK_THROWS_WITH(data::read_libsvm(path, {}), Catch::Contains("feature 1 is 'inf'"));
  }
}

TEST_CASE("format detection tells LIBSVM from delimited text", "[loader]") {
  const std::string path = write_file("detect.txt", "+1 1:1 2:0.5\n-1 2:1\n");
  CHECK(data::load_dataset({path, "auto", {}}).provenance().parameters.front().second == "libsvm");
  // First lines past the string's inline buffer (15 characters) and past a chunk of 8 MB, after blank
  // lines: detection read its tokens from a destroyed string once, and took such files for CSV.
  for (const std::size_t features : {3, 20, 2000, 800000}) {
    INFO(features);
    std::string first_line = "\n\n+1";
    for (std::size_t j = 1; j <= features; ++j) first_line.append(" ").append(std::to_string(j)).append(":0.5");
    const std::string long_path = write_file("detect_long.txt", first_line + "\n-1 1:1\n");
    const core::Dataset read = data::load_dataset({long_path, "auto", {}});
    CHECK(read.provenance().parameters.front().second == "libsvm");
    CHECK(read.d() == features);
  }
}

TEST_CASE("LIBSVM: a huge feature index is refused before anything is allocated", "[loader][libsvm]") {
  // Found by fuzzing (issue 9): 2^63 crashed in Eigen, 18451615 asked for gigabytes.
  data::LibsvmOptions options;
  CHECK_THROWS_WITH(data::read_libsvm(write_file("huge1.libsvm", "-1 9223372036854775808:1\n+1 1:1\n"), options),
                    Catch::Contains("huge1.libsvm:1:4: feature index 9223372036854775808 exceeds the limit of "
                                    "1000000 features") &&
                        Catch::Contains("loader option n_features"));
  const std::string wide = write_file("huge2.libsvm", "2 18451615:1\n1");
  CHECK_THROWS_WITH(data::read_libsvm(wide, options), Catch::Contains("feature index 18451615 exceeds the limit"));
  const std::string declared = write_file("huge3.libsvm", "2 1500000:1\n1");
  CHECK_THROWS_WITH(data::read_libsvm(declared, options), Catch::Contains("feature index 1500000 exceeds the limit"));
  options.n_features = 2'000'000;  // declared: read, sparse
  options.storage = data::Storage::automatic;
  const core::Dataset read = data::read_libsvm(declared, options);
  CHECK(read.d() == 2'000'000);
  CHECK(read.is_sparse());
  options.n_features = 100'000'000'000;
  CHECK_THROWS_WITH(data::read_libsvm(declared, options), Catch::Contains("n_features 100000000000 exceeds the limit"));
}

TEST_CASE("write_libsvm: a generated set reads back to the same doubles; a refused write leaves no file",
          "[loader][libsvm]") {
  const core::Dataset data = data::generate("text_shaped:n=200,d=3000,nnz_per_row=10,informative=20,seed=2");
  const std::string path = (sparsesvm::testing::scratch_directory() / "written.libsvm").string();
  data::write_libsvm(data, path);
  data::LibsvmOptions options;
  options.n_features = data.d();  // the format cannot say d: trailing zero columns need it
  options.storage = data::Storage::sparse;
  const core::Dataset back = data::read_libsvm(path, options);
  REQUIRE(back.d() == data.d());
  CHECK(back.labels() == data.labels());
  CHECK((back.sparse() - data.sparse()).norm() == 0.0);
  CHECK_FALSE(std::filesystem::exists(path + ".part"));

  core::DenseMatrix with_missing = core::DenseMatrix::Ones(3, 2);
  with_missing(2, 1) = std::nan("");
  const core::Dataset missing("missing", with_missing, core::Vector::Ones(3), {}, {});
  const std::string refused = (sparsesvm::testing::scratch_directory() / "refused.libsvm").string();
  CHECK_THROWS_WITH(data::write_libsvm(missing, refused), Catch::Contains("example 3 has a missing value in feature 2"));
  CHECK_FALSE(std::filesystem::exists(refused));
  CHECK_FALSE(std::filesystem::exists(refused + ".part"));
}

TEST_CASE("a file read in chunks gives the lines, first line and checksum of the file read whole, wherever chunks end", "[loader][libsvm]") {
  // LIBSVM files are read in chunks (for_each_line_of_file) so that a large one is not held whole beside
  // its entries. A line split between chunks, a byte-order mark split between them, CRLF endings, blank
  // lines and a last line without '\n' must come out as read_text_file + for_each_line gives them, with
  // the whole file's SHA-256.
  using Lines = std::vector<std::pair<std::size_t, std::string>>;
  const auto whole = [](const std::string& path) {
    Lines lines;
    data::for_each_line(data::read_text_file(path), [&](std::size_t n, std::string_view text) { lines.emplace_back(n, text); });
    return lines;
  };
  for (const std::string& content : {std::string("\xEF\xBB\xBF+1 1:0.5\r\n\n  \n-1 2:1 3:4\r\n+1 7:1e-3"),
                                     std::string("+1 1:2\n\xEF\xBB\xBF-1 1:3\n"), std::string("+1"), std::string("\n\n-1 4:1\n")}) {
    const std::string path = write_file("chunks.libsvm", content);
    const Lines expected = whole(path);
    REQUIRE_FALSE(expected.empty());
    for (std::size_t chunk : {1, 2, 3, 4, 5, 7, 11, 64, 1 << 23}) {
      INFO(chunk);
      Lines lines;
      const std::string sha256 = data::for_each_line_of_file(
          path, [&](std::size_t n, std::string_view text) { lines.emplace_back(n, text); }, chunk);
      CHECK(lines == expected);
      CHECK(sha256 == core::sha256_hex(content));
    }
    // What format detection and run's provenance read, also in chunks.
    CHECK(data::first_line_of_file(path) == expected.front().second);
    const data::FileDigest digest = data::digest_file(path);
    CHECK(digest.sha256 == core::sha256_hex(content));
    CHECK(digest.lines == static_cast<std::size_t>(std::count(content.begin(), content.end(), '\n')));
    CHECK(data::count_byte_in_file(path, ':') == static_cast<std::size_t>(std::count(content.begin(), content.end(), ':')));
  }
  const std::string blank = write_file("blank.libsvm", "  \n\r\n");
  CHECK_THROWS_WITH(data::for_each_line_of_file(blank, [](std::size_t, std::string_view) {}, 1),
                    Catch::Contains("file is empty"));
}

TEST_CASE("a dense matrix from entries holds every entry and zeros elsewhere, wherever its row blocks end", "[loader]") {
  // Widths give blocks of 64 rows (3 columns), 10 rows (50,000) and 1 row (600,000: one row fills the
  // buffer); 131 rows end each inside a block. Entries in row order go through the blocks, shuffled ones
  // one at a time; a repeated entry keeps the last value, as for a matrix written entry by entry.
  for (const std::size_t columns : {std::size_t{3}, std::size_t{50'000}, std::size_t{600'000}}) {
    const std::size_t rows = columns > 100'000 ? 3 : 131;
    std::vector<data::Entry> entries;
    for (std::size_t i = 0; i < rows; ++i) {
      for (std::size_t j = i % 3; j < columns; j += 1 + (i * 7 + j) % 997) entries.emplace_back(i, j, 1.0 + static_cast<double>(i * 13 + j));
    }
    entries.emplace_back(rows - 1, (rows - 1) % 3, -5.0);  // repeats the first entry of the last row
    core::DenseMatrix expected = core::DenseMatrix::Zero(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(columns));
    for (const data::Entry& e : entries) expected(e.row, e.column) = e.value;
    std::vector<data::Entry> shuffled = entries;
    std::reverse(shuffled.begin(), shuffled.end() - 1);  // out of row order; the repeat stays last
    for (const auto* given : {&entries, &shuffled}) {
      INFO(columns << " columns, " << (given == &entries ? "in row order" : "shuffled"));
      const auto features = data::features_from_entries(rows, columns, *given, data::Storage::dense);
      const auto& matrix = std::get<core::DenseMatrix>(features);
      CHECK(matrix == expected);
    }
  }
}
