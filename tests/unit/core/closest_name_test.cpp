#include <catch2/catch.hpp>

#include "core/closest_name.hpp"
#include "models/methods.hpp"

using namespace sparsesvm;

TEST_CASE("a misspelled name gets the closest known one, a far one none", "[core][suggest]") {
  const std::vector<std::string> methods = {"SVM", "OneNormSVM", "RLSVM1", "RLSVM0", "RLSVMC1", "ADMM-SCAD"};
  CHECK(core::closest_name("RLSVMO", methods) == "RLSVM0");    // O for 0
  CHECK(core::closest_name("rlsvm0", methods) == "RLSVM0");    // case
  CHECK(core::closest_name("OneNromSVM", methods) == "OneNormSVM");  // swapped neighbours
  CHECK(core::closest_name("ADMM-SACD", methods) == "ADMM-SCAD");
  CHECK_FALSE(core::closest_name("PSI-3", methods).has_value());  // two edits from SVM and nothing closer
  CHECK_FALSE(core::closest_name("lasso", methods).has_value());
  CHECK(core::did_you_mean("svm", methods) == "did you mean 'SVM'? ");
  CHECK(core::did_you_mean("lasso", methods).empty());
}

TEST_CASE("an unknown method's error suggests the registered one", "[core][suggest]") {
  CHECK_THROWS_WITH(models::find_method("RLSVMO"), Catch::Contains("unknown method 'RLSVMO' (did you mean 'RLSVM0'? known: SVM,"));
  CHECK_THROWS_WITH(models::find_method("Lasso"), Catch::Contains("unknown method 'Lasso' (known: SVM,"));
}
