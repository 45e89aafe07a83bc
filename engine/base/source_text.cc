#include "engine/base/source_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

namespace muh {

std::optional<std::size_t> FindInvalidUtf8(std::string_view bytes) {
  std::size_t i = 0;
  while (i < bytes.size()) {
    unsigned char c = static_cast<unsigned char>(bytes[i]);
    std::size_t n = c < 0x80           ? 1
                    : (c >> 5) == 0x6  ? 2
                    : (c >> 4) == 0xE  ? 3
                    : (c >> 3) == 0x1E ? 4
                                       : 0;
    if (n == 0 || i + n > bytes.size()) return i;
    uint32_t cp = n == 1 ? c : c & (0x7F >> n);
    for (std::size_t k = 1; k < n; ++k) {
      unsigned char cc = static_cast<unsigned char>(bytes[i + k]);
      if ((cc & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (cc & 0x3F);
    }
    bool overlong = (n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
    if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += n;
  }
  return std::nullopt;
}

std::string EscapeInvalidUtf8(std::string_view bytes) {
  std::string out;
  while (auto bad = FindInvalidUtf8(bytes)) {
    out.append(bytes.substr(0, *bad));
    out += fmt::format("\\x{:02X}", static_cast<unsigned char>(bytes[*bad]));
    bytes.remove_prefix(*bad + 1);
  }
  out.append(bytes);
  return out;
}

SourceText::SourceText(std::string path, std::string bytes)
    : path_(std::move(path)), bytes_(std::move(bytes)) {
  auto lone_cr = [this](std::size_t i) {
    return bytes_[i] == '\r' && (i + 1 == bytes_.size() || bytes_[i + 1] != '\n');
  };
  line_starts_.push_back(0);
  bool any_lone_cr = false;
  for (std::size_t i = 0; i < bytes_.size(); ++i) {
    if (bytes_[i] == '\n') line_starts_.push_back(i + 1);
    any_lone_cr = any_lone_cr || lone_cr(i);
  }
  if (!any_lone_cr) return;  // Python's lines are git's
  python_line_starts_.push_back(0);
  for (std::size_t i = 0; i < bytes_.size(); ++i) {
    if (bytes_[i] == '\n' || lone_cr(i)) python_line_starts_.push_back(i + 1);
  }
}

std::size_t SourceText::LineIndexOf(std::size_t offset) const {
  offset = std::min(offset, bytes_.size());
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  return static_cast<std::size_t>(it - line_starts_.begin()) - 1;
}

Position SourceText::PositionOf(std::size_t offset) const {
  offset = std::min(offset, bytes_.size());
  const std::vector<std::size_t>& starts =
      python_line_starts_.empty() ? line_starts_ : python_line_starts_;
  auto it = std::upper_bound(starts.begin(), starts.end(), offset);
  std::size_t line = static_cast<std::size_t>(it - starts.begin()) - 1;
  return Position{static_cast<int>(line + 1), static_cast<int>(offset - starts[line] + 1)};
}

std::string_view SourceText::LineText(std::size_t index) const {
  std::size_t begin = line_starts_[index];
  std::size_t end = index + 1 < line_starts_.size() ? line_starts_[index + 1] : bytes_.size();
  std::string_view line(bytes_.data() + begin, end - begin);
  if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

std::string_view SourceText::Eol() const {
  std::size_t nl = bytes_.find('\n');
  if (nl != std::string::npos && nl > 0 && bytes_[nl - 1] == '\r') return "\r\n";
  return "\n";
}

bool SourceText::HasBom() const { return bytes_.compare(0, 3, "\xEF\xBB\xBF") == 0; }

}  // namespace muh
