// How a game ended, read from a record's words (core/rules/declared_ending.h).
// The input is up to four lines: the Termination tag ("-" for none), the
// closing comment, the White and the Black player's names. Checks that the
// reading is consistent: a flag's owner only for a flag fall, a loser only
// for a forfeit or a resignation, a forfeit reason exactly for a forfeit,
// the source and text those of an input that was given.
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "core/rules/declared_ending.h"
#include "fuzz/fuzz_support.h"

namespace arbiter::fuzz {

void EndingTarget(std::string_view input) {
  std::vector<std::string> lines =
      absl::StrSplit(absl::string_view(input.data(), input.size()), absl::MaxSplits('\n', 3));
  lines.resize(4);
  const std::string& tag = lines[0];
  const std::string& comment = lines[1];
  const bool has_tag = tag != "-";
  const DeclaredEnding e =
      ReadDeclaredEnding(has_tag ? &tag : nullptr, comment, PlayerNames{lines[2], lines[3]});
  const std::string what = std::string(ToString(e.kind)) + " from " + ToString(e.source);
  const bool flag = e.kind == EndingKind::kFlagFall;
  ARBITER_FUZZ_CHECK(!e.flag_of || flag, what);
  ARBITER_FUZZ_CHECK(
      !e.loser || e.kind == EndingKind::kForfeit || e.kind == EndingKind::kResignation, what);
  ARBITER_FUZZ_CHECK((e.forfeit != ForfeitReason::kNone) == (e.kind == EndingKind::kForfeit), what);
  ARBITER_FUZZ_CHECK(flag || e.grounds != EndingGrounds::kTimeoutVsInsufficientMaterial, what);
  switch (e.source) {
    case EndingSource::kNone:
      ARBITER_FUZZ_CHECK(e.kind == EndingKind::kNone && e.text.empty(), what);
      break;
    case EndingSource::kTerminationTag:
      ARBITER_FUZZ_CHECK(has_tag && e.text == tag, what);
      break;
    case EndingSource::kClosingComment:
      ARBITER_FUZZ_CHECK(
          e.text == comment && e.kind != EndingKind::kNone && e.kind != EndingKind::kUnrecognised,
          what);
      break;
  }
}

}  // namespace arbiter::fuzz

#ifndef ARBITER_FUZZ_REGRESSION_TEST  // the regression test calls EndingTarget by name
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  arbiter::fuzz::EndingTarget(arbiter::fuzz::AsText(data, size));
  return 0;
}
#endif
