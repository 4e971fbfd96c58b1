// Subcommands of the `arbiter` binary. Each takes the words after its name
// and returns the process exit code.
#pragma once

#include <string>
#include <vector>

namespace arbiter::cli {

int RunPerft(const std::vector<std::string>& args);
int RunAnalyze(const std::vector<std::string>& args);
int RunVerify(const std::vector<std::string>& args);
int RunTables(const std::vector<std::string>& args);
int RunJob(const std::vector<std::string>& args);

}  // namespace arbiter::cli
