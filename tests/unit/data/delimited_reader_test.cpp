#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <map>

#include "core/errors.hpp"
#include "data/delimited_reader.hpp"
#include "data/load.hpp"
#include "test_files.hpp"

using namespace sparsesvm;
using sparsesvm::core::InputError;
using sparsesvm::testing::write_file;

namespace {

data::DelimitedOptions positive(std::vector<std::string> values) {
  data::DelimitedOptions options;
  options.labels.positive = std::move(values);
  return options;
}

}  // namespace

TEST_CASE("UCI-style file: ID column dropped, class by value, header detected", "[loader][delimited]") {
  const std::string path = write_file("wdbc_like.csv",
                                      "id,radius,texture,diagnosis\n"
                                      "842302,17.99,10.38,M\n"
                                      "842517,20.57,17.77,B\r\n"
                                      "\n"
                                      "84300903,19.69,21.25,M\n");
  data::DelimitedOptions options = positive({"M"});
  options.label_column = 3;
  options.drop_columns = {0};
  const core::Dataset data = data::read_delimited(path, options);
  CHECK(data.n() == 3);
  CHECK(data.d() == 2);
  CHECK(data.feature_names() == std::vector<std::string>{"radius", "texture"});
  CHECK(data.value(1, 1) == 17.77);
  CHECK(data.labels()[0] == 1);
  CHECK(data.labels()[1] == -1);
  CHECK(data.name() == "wdbc_like");
  CHECK(data.provenance().sha256.size() == 64);
}

TEST_CASE("labels: automatic for two numbers, threshold rule, negative list", "[loader][delimited]") {
  const std::string path = write_file("numeric_class.csv", "1.5,2,0\n2.5,3,1\n0.5,1,1\n");
  const core::Dataset automatic = data::read_delimited(path, {});
  CHECK(automatic.labels()[0] == -1);  // 0 -> -1, 1 -> +1
  CHECK(automatic.labels()[1] == 1);

  const std::string times = write_file("survival.csv", "1,12\n2,30\n3,24\n4,60\n");
  data::DelimitedOptions by_time;
  by_time.labels.threshold = 24;  // recurrence after 24 months is the positive class
  const core::Dataset thresholded = data::read_delimited(times, by_time);
  CHECK(thresholded.labels() == (core::Vector(4) << -1, 1, -1, 1).finished());

  const std::string three = write_file("three_classes.csv", "1,a\n2,b\n3,c\n");
  data::DelimitedOptions strict = positive({"a"});
  strict.labels.negative = {"b"};
  CHECK_THROWS_WITH(data::read_delimited(three, strict), Catch::Contains("three_classes.csv:3") &&
                                                             Catch::Contains("class value 'c' is neither"));
  CHECK_THROWS_WITH(data::read_delimited(three, {}), Catch::Contains("3 distinct value(s) (a, b, c)"));
  data::DelimitedOptions one_vs_rest;
  one_vs_rest.labels.most_frequent = true;
  const std::string skewed = write_file("skewed.csv", "1,a\n2,b\n3,b\n4,c\n");
  CHECK(data::read_delimited(skewed, one_vs_rest).labels() == (core::Vector(4) << -1, 1, 1, -1).finished());
}

TEST_CASE("missing values: error, drop the row, or keep as NaN", "[loader][delimited]") {
  const std::string path = write_file("missing.csv", "1,2,1\n3,?,-1\n5,6,-1\n7,8,1\n");
  CHECK_THROWS_WITH(data::read_delimited(path, {}), Catch::StartsWith(path + ":2:3: missing value '?'"));
  data::DelimitedOptions drop;
  drop.missing = data::MissingPolicy::drop_row;
  const core::Dataset dropped = data::read_delimited(path, drop);
  CHECK(dropped.n() == 3);
  CHECK(dropped.value(1, 0) == 5);
  data::DelimitedOptions keep;
  keep.missing = data::MissingPolicy::keep;
  const core::Dataset kept = data::read_delimited(path, keep);
  CHECK(kept.count_missing() == 1);
  CHECK(std::isnan(kept.value(1, 1)));
}

TEST_CASE("malformed delimited files give file:line errors", "[loader][delimited]") {
  SECTION("wrong column count (a truncated line)") {
    const std::string path = write_file("truncated.csv", "1,2,1\n3,4,-1\n5,6\n");
    CHECK_THROWS_WITH(data::read_delimited(path, {}), Catch::StartsWith(path + ":3: expected 3 fields, found 2"));
  }
  SECTION("non-numeric token") {
    const std::string path = write_file("token.csv", "1,2,1\n3,x4,-1\n");
    CHECK_THROWS_WITH(data::read_delimited(path, {}),
                      Catch::StartsWith(path + ":2:3: expected a number for column 1 (counting from 0), found 'x4'"));
  }
  SECTION("NaN and inf") {
    const std::string nan_path = write_file("nan.csv", "1,2,1\nnan,4,-1\n");
    CHECK_THROWS_WITH(data::read_delimited(nan_path, {}), Catch::Contains(":2:1: column 0 (counting from 0) is 'nan'"));
    const std::string inf_path = write_file("inf.csv", "1,2,1\n3,-inf,-1\n");
    CHECK_THROWS_WITH(data::read_delimited(inf_path, {}), Catch::Contains(":2:3: column 1 (counting from 0) is '-inf'"));
  }
  SECTION("empty file") {
    const std::string path = write_file("empty.csv", "\n  \n");
    CHECK_THROWS_WITH(data::read_delimited(path, {}), path + ": file is empty");
  }
  SECTION("a header only") {
    const std::string path = write_file("header_only.csv", "a,b,label\n");
    CHECK_THROWS_WITH(data::read_delimited(path, {}), path + ": no data rows");
  }
  SECTION("a single class") {
    const std::string path = write_file("one_class.csv", "1,2,1\n3,4,1\n");
    CHECK_THROWS_WITH(data::read_delimited(path, positive({"1"})), Catch::Contains("all 2 examples are in class +1"));
  }
  SECTION("missing file") {
    CHECK_THROWS_WITH(data::read_delimited("/nonexistent/x.csv", {}), "/nonexistent/x.csv: cannot open file");
  }
  SECTION("label column out of range") {
    const std::string path = write_file("narrow.csv", "1,2\n3,4\n");
    data::DelimitedOptions options;
    options.label_column = 5;
    CHECK_THROWS_WITH(data::read_delimited(path, options), Catch::Contains("label column 5 does not exist"));
  }
}

TEST_CASE("load_dataset reads text options and rejects unknown ones", "[loader]") {
  const std::string path = write_file("opts.txt", "7 1 2 good\n8 3 4 bad\n9 5 6 good\n");
  data::DataSource source{path, "delimited",
                          {{"delimiter", "whitespace"}, {"drop_columns", "0"}, {"positive", "good"}, {"name", "demo"}}};
  const core::Dataset data = data::load_dataset(source);
  CHECK(data.name() == "demo");
  CHECK(data.d() == 2);
  CHECK(data.value(2, 1) == 6);
  source.options["positve"] = "good";
  CHECK_THROWS_WITH(data::load_dataset(source), Catch::Contains("unknown delimited loader option 'positve'"));
}

TEST_CASE("delimited: a UTF-8 BOM is skipped, a half-numeric first row is an error, not a header", "[loader][delimited]") {
  // Found in issue 9: both turned the first example into a header (n = 2 of 3).
  data::DelimitedOptions options;
  const core::Dataset bom = data::read_delimited(write_file("bom.csv", "\xEF\xBB\xBF" "1,2,1\n3,4,-1\n5,6,1\n"), options);
  CHECK(bom.n() == 3);
  CHECK(bom.value(0, 0) == 1.0);
  CHECK_THROWS_WITH(data::read_delimited(write_file("typo.csv", "1,2x,1\n3,4,-1\n5,6,1\n"), options),
                    Catch::Contains("typo.csv:1:3: '2x' is not a number, but 1 other fields of this first row are") &&
                        Catch::Contains("header to true or false"));
  options.header = false;  // given: the first row is data, and its token is an error of its own, no header hint
  CHECK_THROWS_WITH(data::read_delimited(write_file("typo2.csv", "1,2x,1\n3,4,-1\n"), options),
                    Catch::Contains("typo2.csv:1:3: expected a number for column 1") && !Catch::Contains("header"));
}

TEST_CASE("delimited and LIBSVM: a number beyond a double's range is named so; one below it reads as its rounding",
          "[loader][delimited][libsvm]") {
  // Found by a review: both read as "not a number", with a header hint even where header was given.
  data::DelimitedOptions options;
  const std::string huge = write_file("huge.csv", "1,2,1\n3,-1e400,-1\n");
  CHECK_THROWS_WITH(data::read_delimited(huge, options),
                    Catch::StartsWith(huge + ":2:3: column 1 (counting from 0) is '-1e400', beyond the largest double"));
  // In the first row a number out of range is still a number: no header guess.
  CHECK_THROWS_WITH(data::read_delimited(write_file("huge_first.csv", "1,1e400,1\n3,4,-1\n"), options),
                    Catch::Contains("huge_first.csv:1:3: column 1 (counting from 0) is '1e400', beyond the largest double"));
  const core::Dataset tiny = data::read_delimited(write_file("tiny.csv", "1e-400,2,1\n-4.9e-324,4,-1\n"), options);
  CHECK(tiny.n() == 2);
  CHECK(tiny.value(0, 0) == 0.0);
  CHECK(tiny.value(1, 0) == -std::numeric_limits<double>::denorm_min());
  const std::string libsvm = write_file("huge.libsvm", "+1 1:1e400\n-1 1:2\n");
  CHECK_THROWS_WITH(data::load_dataset({libsvm, "libsvm", {}}), Catch::Contains("huge.libsvm:1:") &&
                                                                Catch::Contains("feature 1 is '1e400', beyond the largest double"));
  const core::Dataset tiny_libsvm = data::load_dataset({write_file("tiny.libsvm", "+1 1:1e-400 2:3\n-1 1:2\n"), "libsvm", {}});
  CHECK(tiny_libsvm.n() == 2);
  CHECK(tiny_libsvm.value(0, 0) == 0.0);
  CHECK(tiny_libsvm.value(0, 1) == 3.0);
}

TEST_CASE("without a delimiter option, ';' and tab files are read; ',' stays the default", "[loader][delimited]") {
  const auto load = [](const std::string& path, std::map<std::string, std::string> options) {
    return data::load_dataset({path, "delimited", std::move(options)});
  };
  const std::string semicolon = write_file("semicolon.csv", "a;b;label\n1.5;2;1\n2;3;-1\n4;5;1\n");
  const std::string tab = write_file("tab.tsv", "a\tb\tlabel\n1\t2\t1\n2\t3\t-1\n");
  const std::string comma = write_file("comma_with_semicolons.csv", "a;x,b,label\n1,2,1\n2,3,-1\n");
  const core::Dataset from_semicolon = load(semicolon, {{"positive", "1"}});
  CHECK(from_semicolon.d() == 2);
  CHECK(from_semicolon.feature_names() == std::vector<std::string>{"a", "b"});
  CHECK(load(tab, {{"positive", "1"}}).d() == 2);
  CHECK(load(comma, {{"positive", "1"}}).d() == 2);  // the header's ',' decides, its ';' is a name's
  // A given delimiter is used as given (here it makes one field per row: no feature, an error).
  CHECK_THROWS_AS(load(semicolon, {{"positive", "1"}, {"delimiter", ","}}), InputError);
}

TEST_CASE("label_column by header name: the named field is the class, a misspelled name gets a suggestion",
          "[loader][delimited]") {
  const std::string path = write_file("named_class.csv", "kind,x1,x2\nB,1,2\nM,3,4\nB,5,6\n");
  data::DataSource source{path, "delimited", {{"label_column", "kind"}, {"positive", "M"}}};
  const core::Dataset data = data::load_dataset(source);
  CHECK(data.n() == 3);
  CHECK(data.d() == 2);
  CHECK(data.labels()[1] == 1.0);
  CHECK(data.labels()[0] == -1.0);
  CHECK(data.feature_names() == std::vector<std::string>{"x1", "x2"});
  source.options["label_column"] = "knid";
  CHECK_THROWS_WITH(data::load_dataset(source), Catch::Contains("label_column 'knid' is not a field of the first line") &&
                                                    Catch::Contains("did you mean 'kind'?"));
  // A number stays a column number (from 0; negative from the end).
  source.options["label_column"] = "0";
  CHECK(data::load_dataset(source).d() == 2);
}
