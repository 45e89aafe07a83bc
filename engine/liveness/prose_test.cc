#include "engine/liveness/prose.h"

#include <doctest/doctest.h>

#include <string>

namespace muh {

TEST_CASE("a name in a string counts unless the string is prose") {
  std::string src =
      "\"\"\"Docstring: warm.\"\"\"\n"
      "logger.info(\"warm is %s\", x)\n"
      "print('warm')\n"
      "raise ValueError(\"no warm here\")\n"
      "assert ok, 'warm'\n"
      "__all__ = ['warm']\n"
      "getattr(m, 'warm')()\n"
      "logger.info(f\"{warm()}\")\n"
      "table = {'warm': 1}\n"
      "assert 'warm' in table\n";
  auto lines = StatementTable::Build(src);
  REQUIRE(lines.has_value());
  auto at = [&](int line) {
    std::size_t o = 0;
    for (int i = 0; i < line; ++i) o = src.find('\n', o) + 1;
    return src.find("warm", o);
  };
  for (int prose : {0, 1, 2, 3, 4, 5}) CHECK_MESSAGE(InProse(*lines, at(prose)), prose);
  for (int use : {6, 7, 8, 9}) CHECK_FALSE_MESSAGE(InProse(*lines, at(use)), use);
  CHECK(InFString(*lines, at(7)));
  CHECK_FALSE(InFString(*lines, at(1)));
}

}  // namespace muh
