// A source file's exact bytes plus a line index. Nothing is normalised:
// CRLF, a BOM and a missing final newline are all kept as they are.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace muh {

// 1-based line and byte column, as compilers print them.
struct Position {
  int line = 1;
  int column = 1;
};

// Offset of the first byte that is not part of valid UTF-8, if any.
std::optional<std::size_t> FindInvalidUtf8(std::string_view bytes);

// `bytes` as valid UTF-8 for JSON and other text formats: each byte that is
// not part of a valid sequence becomes the four characters `\xHH`.
std::string EscapeInvalidUtf8(std::string_view bytes);

class SourceText {
 public:
  SourceText() = default;
  SourceText(std::string path, std::string bytes);

  const std::string& path() const { return path_; }
  const std::string& bytes() const { return bytes_; }

  // Position of a byte offset; offsets past the end clamp to the end. Lines
  // are counted as Python, editors and SARIF count them: a CR that no LF
  // follows ends one too. (git and the unified diff count LF only: the
  // line index below.)
  Position PositionOf(std::size_t offset) const;
  // Byte offset where the 0-based line `index` starts (lines end at LF).
  std::size_t LineStart(std::size_t index) const { return line_starts_[index]; }
  std::size_t LineCount() const { return line_starts_.size(); }
  // The line holding `offset`, 0-based.
  std::size_t LineIndexOf(std::size_t offset) const;
  // The 0-based line `index` without its terminator.
  std::string_view LineText(std::size_t index) const;
  // "\r\n" when the first line ending in the file is CRLF, else "\n".
  std::string_view Eol() const;
  bool HasBom() const;

 private:
  std::string path_;
  std::string bytes_;
  std::vector<std::size_t> line_starts_;
  // Where a lone CR ends a line: the starts of Python's lines; else empty,
  // and line_starts_ serves.
  std::vector<std::size_t> python_line_starts_;
};

}  // namespace muh
