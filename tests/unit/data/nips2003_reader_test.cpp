#include <catch2/catch.hpp>

#include <filesystem>

#include "core/errors.hpp"
#include "data/load.hpp"
#include "data/nips2003_reader.hpp"
#include "test_files.hpp"

using namespace sparsesvm;
using sparsesvm::testing::write_file;

TEST_CASE("NIPS 2003 dense format merges train and valid", "[loader][nips2003]") {
  const std::string train = write_file("toyset_train.data", "1 0 3\n0 2 0\n");
  write_file("toyset_train.labels", "1\n-1\n");
  write_file("toyset_valid.data", "4 5 6\n");
  write_file("toyset_valid.labels", "-1\n");
  const std::string directory = std::filesystem::path(train).parent_path().string();
  const core::Dataset data = data::read_nips2003(directory, "toyset", {});
  CHECK(data.n() == 3);
  CHECK(data.d() == 3);
  CHECK(data.value(2, 1) == 5);
  CHECK(data.labels() == (core::Vector(3) << 1, -1, -1).finished());
  CHECK(data::load_dataset({directory + "/toyset", "nips2003", {{"parts", "train"}}}).n() == 2);
}

TEST_CASE("NIPS 2003 sparse formats: index:value and binary indices", "[loader][nips2003]") {
  const std::string valued = write_file("dexterish_train.data", "2:5 4:1\n1:3\n");
  write_file("dexterish_train.labels", "-1\n1\n");
  const std::string directory = std::filesystem::path(valued).parent_path().string();
  data::Nips2003Options options;
  options.parts = {"train"};
  options.storage = data::Storage::sparse;
  const core::Dataset dexter = data::read_nips2003(directory, "dexterish", options);
  CHECK(dexter.is_sparse());
  CHECK(dexter.d() == 4);
  CHECK(dexter.value(0, 1) == 5);

  write_file("dorothish_train.data", "1 3\n2\n");
  write_file("dorothish_train.labels", "1\n-1\n");
  options.format = data::Nips2003Format::sparse_binary;
  const core::Dataset dorothea = data::read_nips2003(directory, "dorothish", options);
  CHECK(dorothea.d() == 3);
  CHECK(dorothea.value(0, 2) == 1);
  CHECK(dorothea.value(1, 0) == 0);
}

TEST_CASE("NIPS 2003 errors: label count, ragged rows", "[loader][nips2003]") {
  const std::string data_path = write_file("ragged_train.data", "1 2 3\n4 5\n");
  write_file("ragged_train.labels", "1\n-1\n");
  const std::string directory = std::filesystem::path(data_path).parent_path().string();
  data::Nips2003Options options;
  options.parts = {"train"};
  CHECK_THROWS_WITH(data::read_nips2003(directory, "ragged", options), data_path + ":2: expected 3 values, found 2");

  write_file("short_train.data", "1 2\n3 4\n");
  write_file("short_train.labels", "1\n");
  CHECK_THROWS_WITH(data::read_nips2003(directory, "short", options), Catch::Contains("1 labels for 2 rows"));
}

TEST_CASE("NIPS 2003 dense: a valid part wider than train is an error, not zero-padding", "[loader][nips2003]") {
  const std::string train = write_file("widerset_train.data", "1 0 3\n0 2 0\n");
  write_file("widerset_train.labels", "1\n-1\n");
  write_file("widerset_valid.data", "4 5 6 7\n");
  write_file("widerset_valid.labels", "-1\n");
  const std::string directory = std::filesystem::path(train).parent_path().string();
  CHECK_THROWS_WITH(data::read_nips2003(directory, "widerset", {}),
                    Catch::Contains("widerset_valid.data: 4 values per row, but the parts before it have 3"));
}
