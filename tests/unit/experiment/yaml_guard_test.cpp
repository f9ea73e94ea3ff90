// The text guard in front of yaml-cpp (experiment/yaml_guard.hpp): it refuses the block-level commas
// on which yaml-cpp 0.7 never returns, and passes every comma that is text.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/errors.hpp"
#include "experiment/yaml_guard.hpp"

using sparsesvm::experiment::check_yaml_text;

TEST_CASE("commas that yaml-cpp loops on are refused with their line", "[config][yaml]") {
  for (const char* text : {", a", "a: 1\n, b", "&a, b", "\"\",", "'x', y", "a: [1, 2],", "a: {b: 1},",
                           "a: *x, b", "- \"q\"  ,", "a: 'it''s', b"}) {
    INFO(text);
    CHECK_THROWS_WITH(check_yaml_text(text, "f.yaml"), Catch::Contains("f.yaml:") && Catch::Contains("a ',' outside"));
  }
  CHECK_THROWS_WITH(check_yaml_text("a: 1\nb: \"x\",\n", "f.yaml"), Catch::Contains("f.yaml:2:"));
  CHECK_THROWS_WITH(check_yaml_text(std::string("a\0b", 3), "f.yaml"), Catch::Contains("control character 0x00"));
  CHECK_THROWS_WITH(check_yaml_text("a: 1\n!\xc3\xa9\n?\n", "f.yaml"), Catch::Contains("f.yaml:2: a tag"));
  CHECK_THROWS_WITH(check_yaml_text("&\re,", "f.yaml"), Catch::Contains("control character 0x0d"));
  CHECK_NOTHROW(check_yaml_text("a: 1\r\nb: [1, 2]\r\n", "f.yaml"));
  CHECK_THROWS_WITH(check_yaml_text("a: !!str 1", "f.yaml"), Catch::Contains("a tag"));
  CHECK_THROWS_WITH(check_yaml_text("\"\"\"\"ae\tr5\n?\n?\"\"\"\"", "f.yaml"), Catch::Contains("f.yaml:2: an explicit key"));
  CHECK_THROWS_WITH(check_yaml_text("? a\n: 1", "f.yaml"), Catch::Contains("an explicit key"));
  // Review: a byte order mark, text after a document marker, a JSON-style "k":"v" (all hung yaml-cpp).
  for (const char* text : {"\xef\xbb\xbf, a", "\xef\xbb\xbf\"x\", b", "--- , a", "--- &a, b", "... \"x\", y",
                           "x: 1\n--- [a], b", "{\"a\":\"]\"}, b", "{\"a\":\"x #\"}\n, b"}) {
    INFO(text);
    CHECK_THROWS_WITH(check_yaml_text(text, "f.yaml"), Catch::Contains("a ',' outside"));
  }
  CHECK_THROWS_WITH(check_yaml_text("--- !x, a", "f.yaml"), Catch::Contains("a tag"));
  CHECK_THROWS_WITH(check_yaml_text("a: \xc3(", "f.yaml"), Catch::Contains("not UTF-8 text (byte 0xc3 at column 4)"));
  CHECK_THROWS_WITH(check_yaml_text("a: \xed\xa0\x80", "f.yaml"), Catch::Contains("not UTF-8"));  // a surrogate
  CHECK_THROWS_WITH(check_yaml_text("a: \xc0\xaf", "f.yaml"), Catch::Contains("not UTF-8"));      // overlong
}

TEST_CASE("commas that are text pass: plain scalars, quotes, comments, flow collections, block scalars", "[config][yaml]") {
  for (const char* text : {"description: a, b", "a: \"x, y\"", "a: 'x, y'", "a: 1  # x, y", "a: [1, 2, \"3,4\"]",
                           "a: {b: 1, c: [2, 3]}", "a: |\n  \"\", x\n  , y\nb: 1", "a: >-\n  'q', r\n",
                           "a: \"multi\n  line, \\\" q\"\n", "a: [1,\n  2]", "- a, b\n- [c, d]", "a:b, c",
                           "a: &x [1, 2]\nb: *x", "a: hi!, b", "a: what?, b", "title: \"?\"", "description: ?what", "\xef\xbb\xbf" "a: 1, 2", "---\na: 1",
                           "--- {a: 1}", "{\"title\":\"Error [%], per method\"}",
                           "description: |\r\n  first\r\n\r\n  \"x\", y\r\n  ! note\r\nb: 1\r\n", "title: \"Fig. 3 \xc3\xa9 \xe2\x82\xac\"",
                           "url: http://x/y, z"}) {
    INFO(text);
    CHECK_NOTHROW(check_yaml_text(text, "f.yaml"));
  }
}

TEST_CASE("every config of the repository passes the guard", "[config][yaml]") {
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(SPARSESVM_TEST_DATA_DIR "/../../configs")) {
    if (entry.path().extension() != ".yaml") continue;
    std::ifstream stream(entry.path());
    std::stringstream text;
    text << stream.rdbuf();
    INFO(entry.path());
    CHECK_NOTHROW(check_yaml_text(text.str(), entry.path().string()));
    ++files;
  }
  CHECK(files >= 20);
}
