// The three programs' command lines, read by CLI11 with the conventions they
// have always had:
//   --name VALUE and --name=VALUE; a value option given twice keeps the
//   last, a repeatable one (AddRepeatable) keeps every value, in order;
//   a value is the next word whatever it looks like (--shard -1/2 is read,
//   then refused by --shard's own check); flags take no value;
//   "--" ends the options: every word after it is an operand (a file named
//   --odd.pgn);
//   -h and --help on every command and subcommand, --version on every
//   program;
//   an error names the option ("unknown option --frobnicate", "--jobs needs
//   a value", "--budget must be 1..2^40 positions") and exits with kUsage.
// Values are checked where they are read, by each option's callback, so
// that every program words a bad value the same way.
#pragma once

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/build_info.h"
#include "common/exit_code.h"

namespace arbiter::common {

// A value that an option's own check refuses, worded by that check. Thrown
// from an option's callback, it leaves CLI11's parse() unchanged.
class UsageError : public CLI::ParseError {
 public:
  explicit UsageError(std::string message)
      : CLI::ParseError("UsageError", std::move(message), int(ExitCode::kUsage)) {}
};

// A value option stored as given (std::string, or std::optional<std::string>
// to tell "given empty" from "not given"). `type` names the value in --help.
template <typename T>
CLI::Option* AddValue(CLI::App& app, const std::string& name, T* value, const std::string& type,
                      const std::string& help) {
  return app.add_option(name, *value, help)
      ->type_name(type)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

// A value option handed to `read`, which stores it or throws UsageError.
inline CLI::Option* AddChecked(CLI::App& app, const std::string& name,
                               std::function<void(const std::string&)> read,
                               const std::string& type, const std::string& help) {
  return app.add_option_function<std::string>(name, std::move(read), help)
      ->type_name(type)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

// An integer option within lo..hi, handed to `store`. A value that is not an
// integer is refused as "--NAME must be an integer, got "x"", one outside
// the range with `range_message`.
inline CLI::Option* AddInteger(CLI::App& app, const std::string& name, int64_t lo, int64_t hi,
                               std::string range_message, std::function<void(int64_t)> store,
                               const std::string& type, const std::string& help) {
  return AddChecked(
      app, name,
      [name, lo, hi, range_message = std::move(range_message),
       store = std::move(store)](const std::string& text) {
        int64_t v;
        if (!absl::SimpleAtoi(text, &v))
          throw UsageError(absl::StrCat(name, " must be an integer, got \"", text, "\""));
        if (v < lo || v > hi) throw UsageError(range_message);
        store(v);
      },
      type, help);
}

inline CLI::Option* AddInteger(CLI::App& app, const std::string& name, int64_t* value, int64_t lo,
                               int64_t hi, std::string range_message, const std::string& type,
                               const std::string& help) {
  return AddInteger(
      app, name, lo, hi, std::move(range_message), [value](int64_t v) { *value = v; }, type, help);
}

// A repeatable value option: every value, in command-line order. Each
// occurrence takes one word, so that operands after it stay operands.
inline CLI::Option* AddRepeatable(CLI::App& app, const std::string& name,
                                  std::vector<std::string>* values, const std::string& type,
                                  const std::string& help) {
  return app.add_option(name, *values, help)->type_name(type)->allow_extra_args(false)->take_all();
}

// A flag: --name sets it; --name=VALUE is an error.
inline CLI::Option* AddFlag(CLI::App& app, const std::string& name, bool* value,
                            const std::string& help) {
  return app.add_flag(name, *value, help)->disable_flag_override();
}

// The words that are not options (files, ids), and every word after "--".
inline CLI::Option* AddOperands(CLI::App& app, const std::string& name,
                                std::vector<std::string>* words, const std::string& help) {
  return app.add_option(name, *words, help)->type_name("");
}

// --version, printing VersionLine(program).
inline void AddVersionFlag(CLI::App& app) {
  app.set_version_flag("--version", VersionLine(app.get_name()),
                       "Print the program's version and commit, and exit");
}

// The name errors are reported under: the program and its command ("arbiter
// verify"), as each command always has.
inline std::string ProgramName(const CLI::App& app) {
  std::string name = app.get_name();
  if (const std::vector<CLI::App*> chosen = app.get_subcommands(); !chosen.empty())
    absl::StrAppend(&name, " ", chosen.front()->get_name());
  return name;
}

// The error for words no option or operand took (`remaining`, as
// CLI::App::remaining() gives them), worded after the first; nullopt when
// there are none.
inline std::optional<std::string> UnexpectedWords(const std::vector<std::string>& remaining) {
  for (const std::string& word : remaining) {
    if (word == "--") continue;  // kept by CLI11 as a marker, not a word
    if (word.size() > 1 && word[0] == '-')
      return absl::StrCat("unknown option ", word.substr(0, word.find('=')));
    return absl::StrCat("unexpected argument \"", word, "\"");
  }
  return std::nullopt;
}

// A parse error in the programs' words. CLI11 words its own errors
// differently; they are reworded from what CLI11 reports (its messages
// name the option first).
inline std::string UsageMessage(const CLI::ParseError& e, const CLI::App& app) {
  const std::string what = e.what();
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
    if (std::optional<std::string> message = UnexpectedWords(app.remaining(/*recurse=*/true)))
      return *message;
  }
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr) {
    // "--jobs: 1 required TEXT missing": the last word of the line was an
    // option that takes a value.
    if (const size_t colon = what.find(": ");
        colon != std::string::npos && what.ends_with(" missing"))
      return absl::StrCat(what.substr(0, colon), " needs a value");
    // "json was given a disallowed flag override": --json=VALUE.
    constexpr std::string_view kOverride = " was given a disallowed flag override";
    if (what.ends_with(kOverride))
      return absl::StrCat("--", what.substr(0, what.size() - kOverride.size()), " takes no value");
  }
  return what;
}

// Reads argv (argv[0] is the program) into the options registered on `app`.
// Returns nullopt when the program should go on; otherwise the code to exit
// with: kSuccess after printing --help or --version on stdout, kUsage after
// printing an error as "<program>: <message>" on stderr.
inline std::optional<ExitCode> ParseCommandLine(CLI::App& app, int argc, const char* const* argv) {
  std::vector<std::string> words(argv + 1, argv + argc);
  // CLI11 2.1 reads "--name=" as "--name" followed by the next word; it has
  // always meant the empty value (--tables= keeps tables in memory).
  std::vector<std::string> reversed;  // the order CLI11 parses from
  const auto end_of_options = std::find(words.begin(), words.end(), "--");
  for (auto it = words.rbegin(); it != words.rend(); ++it) {
    const bool before_end = it.base() <= end_of_options;
    if (before_end && it->size() > 3 && it->starts_with("--") && it->find('=') == it->size() - 1) {
      reversed.push_back("");
      reversed.push_back(it->substr(0, it->size() - 1));
    } else {
      reversed.push_back(*it);
    }
  }
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);  // the chosen subcommand's help
    return ExitCode::kSuccess;
  } catch (const CLI::CallForAllHelp&) {
    std::fputs(app.help("", CLI::AppFormatMode::All).c_str(), stdout);
    return ExitCode::kSuccess;
  } catch (const CLI::CallForVersion& e) {
    std::printf("%s\n", e.what());
    return ExitCode::kSuccess;
  } catch (const CLI::ParseError& e) {
    return Fail(ProgramName(app), absl::InvalidArgumentError(UsageMessage(e, app)));
  }
  return std::nullopt;
}

}  // namespace arbiter::common
