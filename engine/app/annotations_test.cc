#include "engine/app/annotations.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("annotations: properties and messages escaped as GitHub documents") {
  CHECK(EscapeAnnotationProperty("a%b\r\nc:d,e") == "a%25b%0D%0Ac%3Ad%2Ce");
  CHECK(EscapeAnnotationMessage("a%b\r\nc:d,e") == "a%25b%0D%0Ac:d,e");
  CHECK(EscapeAnnotationProperty("tree/vllm/x.py") == "tree/vllm/x.py");
}

TEST_CASE("annotations: every error an ::error, one line each, notes only when asked") {
  std::vector<Finding> findings = {
      {"stale", MakeError("p,1.diff", 0, 0, "drift: p,1.diff is stale: 50% off"), {}, ""},
      {"site",
       Diagnostic{"t/a.py", 3, 5, Severity::kError, "drift: rule 'r' finds '1'"},
       {"  x = 2", "  decided by: y"},
       "r"},
      {"plan", MakeNote("t/a.py", 7, 1, "rule 'q' skipped: p"), {}, "q"},
      {"site", Diagnostic{"t/b.py", 2, 0, Severity::kWarning, "w"}, {}, ""},
  };
  int left_out = -1;
  CHECK(FormatGithubAnnotations(findings, false, &left_out) ==
        "::error file=p%2C1.diff,title=muhpatch stale::drift: p,1.diff is stale: 50%25 off\n"
        "::error file=t/a.py,line=3,col=5,title=muhpatch site%3A rule r::drift: rule 'r' finds "
        "'1'\n"
        "::warning file=t/b.py,line=2,title=muhpatch site::w\n");
  CHECK(left_out == 1);
  std::string all = FormatGithubAnnotations(findings, true, &left_out);
  CHECK(all.find("::notice file=t/a.py,line=7,col=1,title=muhpatch plan%3A rule q::rule 'q' "
                 "skipped: p\n") != std::string::npos);
  CHECK(left_out == 0);
}

}  // namespace muh
