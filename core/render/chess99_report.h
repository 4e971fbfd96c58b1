// One Chess 99 position's analysis (core/verdict/chess99_analysis.h) as
// `analyze --rules chess99` prints it: a JSON record or the text report.
#pragma once

#include <string>

#include "core/verdict/chess99_analysis.h"

namespace arbiter {

std::string Chess99ReportJson(const Chess99Report& r);
std::string Chess99ReportText(const Chess99Report& r);

}  // namespace arbiter
