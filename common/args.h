// A small command-line reader for subcommands: "--name value", "--name=value"
// and boolean "--flag". Unknown or malformed options are errors, reported
// with the option's name. A value option given twice keeps both values
// (GetAll); Get returns the last, as most command lines do.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace arbiter::cli {

class Args {
 public:
  // `value_options` take a value, `flags` do not; anything else starting with
  // "--" is an error. Other words are positional.
  static absl::StatusOr<Args> Parse(const std::vector<std::string>& argv,
                                    const std::set<std::string>& value_options,
                                    const std::set<std::string>& flags) {
    Args a;
    for (size_t i = 0; i < argv.size(); ++i) {
      std::string_view w = argv[i];
      if (w.size() < 3 || w.substr(0, 2) != "--") {
        a.positional_.emplace_back(w);
        continue;
      }
      std::string name(w.substr(2));
      std::optional<std::string> value;
      if (size_t eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name.resize(eq);
      }
      if (flags.count(name)) {
        if (value) return absl::InvalidArgumentError(absl::StrCat("--", name, " takes no value"));
        a.values_[name] = {"true"};
      } else if (value_options.count(name)) {
        if (!value) {
          if (i + 1 >= argv.size())
            return absl::InvalidArgumentError(absl::StrCat("--", name, " needs a value"));
          value = argv[++i];
        }
        a.values_[name].push_back(*value);
      } else {
        return absl::InvalidArgumentError(absl::StrCat("unknown option --", name));
      }
    }
    return a;
  }

  bool Has(const std::string& name) const { return values_.count(name) > 0; }
  std::string Get(const std::string& name, std::string fallback = "") const {
    auto it = values_.find(name);
    return it == values_.end() ? fallback : it->second.back();
  }
  // Every value given for `name`, in command-line order.
  std::vector<std::string> GetAll(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? std::vector<std::string>() : it->second;
  }
  absl::StatusOr<int64_t> GetInt(const std::string& name, int64_t fallback) const {
    auto it = values_.find(name);
    if (it == values_.end()) return fallback;
    const std::string& text = it->second.back();
    int64_t v;
    if (!absl::SimpleAtoi(text, &v))
      return absl::InvalidArgumentError(
          absl::StrCat("--", name, " must be an integer, got \"", text, "\""));
    return v;
  }
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  std::map<std::string, std::vector<std::string>> values_;
  std::vector<std::string> positional_;
};

}  // namespace arbiter::cli
