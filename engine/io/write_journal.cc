#include "engine/io/write_journal.h"

#include <cinttypes>
#include <cstdio>
#include <sstream>

namespace muh {

namespace {

constexpr char kMagic[] = "muhpatch-journal 1";

const char* StateName(JournalState s) {
  switch (s) {
    case JournalState::kPreparing:
      return "preparing";
    case JournalState::kCommitting:
      return "committing";
    case JournalState::kRollingBack:
      return "rolling-back";
    case JournalState::kCommitted:
      return "committed";
  }
  return "preparing";
}

bool ParseState(const std::string& name, JournalState* out) {
  for (JournalState s : {JournalState::kPreparing, JournalState::kCommitting,
                         JournalState::kRollingBack, JournalState::kCommitted}) {
    if (name == StateName(s)) {
      *out = s;
      return true;
    }
  }
  return false;
}

// PATH with bytes <= ' ', '%' and DEL written as %XX, so a path is one word.
std::string Escape(const std::string& path) {
  std::string out;
  for (const char c : path) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= ' ' || c == '%' || u == 0x7f) {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

bool Unescape(const std::string& word, std::string* out) {
  out->clear();
  for (std::size_t i = 0; i < word.size(); ++i) {
    if (word[i] != '%') {
      *out += word[i];
      continue;
    }
    if (i + 2 >= word.size()) return false;
    const int hi = HexDigit(word[i + 1]);
    const int lo = HexDigit(word[i + 2]);
    if (hi < 0 || lo < 0) return false;
    *out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return true;
}

std::string Hex(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, v);
  return buf;
}

bool ParseNumber(const std::string& word, int base, std::uint64_t* out) {
  if (word.empty() || word.size() > 20) return false;
  std::uint64_t v = 0;
  for (const char c : word) {
    const int d = HexDigit(c);
    if (d < 0 || d >= base) return false;
    v = v * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
  }
  *out = v;
  return true;
}

std::string DirOf(const std::string& rel) {
  const std::size_t slash = rel.rfind('/');
  return slash == std::string::npos ? "" : rel.substr(0, slash + 1);
}

// True when REL stays inside the tree: relative, no empty, `.` or `..` part.
bool IsTreePath(const std::string& rel) {
  if (rel.empty() || rel[0] == '/') return false;
  std::size_t start = 0;
  while (start <= rel.size()) {
    std::size_t end = rel.find('/', start);
    if (end == std::string::npos) end = rel.size();
    const std::string part = rel.substr(start, end - start);
    if (part.empty() || part == "." || part == "..") return false;
    start = end + 1;
  }
  return true;
}

// True when OWN is a name WriteAll gives its files for TARGET.
bool IsOwnFileOf(const std::string& own, const std::string& target) {
  const std::string dir = DirOf(target);
  const std::string prefix = dir + "." + target.substr(dir.size()) + kTempInfix;
  return own.size() > prefix.size() && own.compare(0, prefix.size(), prefix) == 0 &&
         own.find('/', prefix.size()) == std::string::npos;
}

}  // namespace

std::uint64_t ContentHash(std::string_view bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string FormatJournal(const Journal& journal) {
  std::string out = std::string(kMagic) + "\nstate " + StateName(journal.state) + "\n";
  for (const JournalEntry& e : journal.entries) {
    out += "file " + Escape(e.target) + " " + Escape(e.temp) + " " + Escape(e.backup) + " " +
           std::to_string(e.old_size) + " " + Hex(e.old_hash) + " " + std::to_string(e.new_size) +
           " " + Hex(e.new_hash) + "\n";
  }
  return out + "end\n";
}

bool ParseJournal(std::string_view text, Journal* out, std::string* err) {
  std::istringstream in{std::string(text)};
  std::string line;
  int number = 0;
  const auto fail = [&](const std::string& msg) {
    *err = "line " + std::to_string(number) + ": " + msg;
    return false;
  };
  Journal journal;
  bool ended = false;
  while (std::getline(in, line)) {
    ++number;
    if (ended) return fail("text after 'end'");
    std::istringstream words(line);
    std::string kind;
    words >> kind;
    if (number == 1) {
      if (line != kMagic) return fail("expected '" + std::string(kMagic) + "'");
      continue;
    }
    if (number == 2) {
      std::string name;
      if (kind != "state" || !(words >> name) || !ParseState(name, &journal.state)) {
        return fail("expected 'state preparing|committing|rolling-back|committed'");
      }
      continue;
    }
    if (kind == "end") {
      ended = true;
      continue;
    }
    std::string target, temp, backup, old_size, old_hash, new_size, new_hash, extra;
    if (kind != "file" ||
        !(words >> target >> temp >> backup >> old_size >> old_hash >> new_size >> new_hash) ||
        (words >> extra)) {
      return fail("expected 'file TARGET TEMP BACKUP OLD_SIZE OLD_HASH NEW_SIZE NEW_HASH'");
    }
    JournalEntry e;
    if (!Unescape(target, &e.target) || !Unescape(temp, &e.temp) || !Unescape(backup, &e.backup)) {
      return fail("bad %-escape in a path");
    }
    if (!ParseNumber(old_size, 10, &e.old_size) || !ParseNumber(old_hash, 16, &e.old_hash) ||
        !ParseNumber(new_size, 10, &e.new_size) || !ParseNumber(new_hash, 16, &e.new_hash)) {
      return fail("bad size or hash");
    }
    if (!IsTreePath(e.target)) return fail("target leaves the tree");
    if (!IsOwnFileOf(e.temp, e.target) || !IsOwnFileOf(e.backup, e.target) || e.temp == e.backup) {
      return fail("temp and backup must be muhpatch's files beside their target");
    }
    journal.entries.push_back(std::move(e));
  }
  if (!ended) return fail("missing 'end' (journal cut short)");
  *out = std::move(journal);
  return true;
}

}  // namespace muh
