// The single doctest runner that every engine/*_test.cc links into.
//
// CTest runs each test case on its own, as `--test-case=NAME`
// (doctest_discover_tests). A name CTest splits (a ';' in it) or a filter
// that matches nothing would run no test and pass; a filtered run that
// starts no test case fails instead.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <atomic>
#include <cstdio>
#include <string_view>

namespace {

std::atomic<int> started{0};

// Counts the test cases that start; reports nothing.
struct StartedCases : doctest::IReporter {
  explicit StartedCases(const doctest::ContextOptions& /*options*/) {}
  void report_query(const doctest::QueryData& /*data*/) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& /*stats*/) override {}
  void test_case_start(const doctest::TestCaseData& /*data*/) override { ++started; }
  void test_case_reenter(const doctest::TestCaseData& /*data*/) override {}
  void test_case_end(const doctest::CurrentTestCaseStats& /*stats*/) override {}
  void test_case_exception(const doctest::TestCaseException& /*e*/) override {}
  void subcase_start(const doctest::SubcaseSignature& /*signature*/) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData& /*data*/) override {}
  void log_message(const doctest::MessageData& /*data*/) override {}
  void test_case_skipped(const doctest::TestCaseData& /*data*/) override {}
};

REGISTER_LISTENER("started_cases", 1, StartedCases);

}  // namespace

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int rc = context.run();
  bool filtered = false;
  bool listing = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    filtered = filtered || a.rfind("--test-case=", 0) == 0 || a.rfind("-tc=", 0) == 0;
    listing = listing || a.find("list") != std::string_view::npos || a.rfind("-l", 0) == 0 ||
              a.rfind("--count", 0) == 0 || a == "-c" || a.rfind("-h", 0) == 0 ||
              a.rfind("--help", 0) == 0 || a.rfind("-v", 0) == 0;
  }
  if (context.shouldExit() || listing || !filtered) return rc;
  if (rc == 0 && started == 0) {
    std::fputs("muhpatch_tests: the --test-case filter matched no test case, so nothing ran\n",
               stderr);
    return 1;
  }
  return rc;
}
