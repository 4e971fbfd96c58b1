// flag_fall.c with the C++ header (arbiter/arbiter.hpp): the same ruling,
// errors as exceptions.
#include <arbiter/arbiter.hpp>
#include <cstring>
#include <iostream>

int main(int argc, char** argv) {
  if (argc != 3 || (std::strcmp(argv[2], "white") != 0 && std::strcmp(argv[2], "black") != 0)) {
    std::cerr << "usage: " << argv[0] << " FEN white|black (the side whose flag fell)\n";
    return 2;
  }
  const bool white_flagged = std::strcmp(argv[2], "white") == 0;
  const char* opponent = white_flagged ? "Black" : "White";
  const char* win = white_flagged ? "0-1" : "1-0";
  try {
    const arbiter::Engine engine;
    const arbiter::Mate mate =
        engine.CanMate(argv[1], white_flagged ? ARBITER_BLACK : ARBITER_WHITE);
    if (mate.answer == ARBITER_YES) {
      std::cout << win << ": " << opponent << " can still mate, e.g. " << mate.line_san << "\n";
    } else if (mate.answer == ARBITER_NO) {
      std::cout << "1/2-1/2: " << opponent << " cannot mate (proof: " << mate.proof_name() << ")\n";
    } else {
      std::cout << win << ": " << opponent
                << "'s mate was neither shown nor ruled out; the flag fall stands\n";
    }
  } catch (const arbiter::Error& e) {
    std::cerr << "flag_fall: " << arbiter_status_name(e.status()) << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}
