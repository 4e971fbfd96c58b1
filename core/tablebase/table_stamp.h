// A record, beside a retrograde table file, that the file was checked in
// full (checksum and content, retrograde_store.h) and has not changed since,
// so that later processes need not read all of it again: the full check of
// the 3-4-man set costs ~0.1 s per process, as much as answering a few
// thousand positions.
//
// "Not changed" is what the file system says: the same device, inode, size,
// modification and status-change times (nanoseconds). A write to the file,
// a rename over it or a `touch` changes the status-change time, which no
// user can set back. What a stamp cannot see is damage below the file
// system (a failing disk): the same as for every other file a program
// reads, its own binary included. Deleting the stamps (DIR/*.arbt.verified)
// brings back the full check.
//
// A file changed within the clock's granularity of being checked could
// keep its times; so a file is stamped only when its times are a few
// seconds old (the "racily clean" case git guards against the same way).
#pragma once

#include <cstdint>
#include <string>

namespace arbiter {

// What the file system says about an open file.
struct FileIdentity {
  uint64_t device = 0, inode = 0, size = 0;
  int64_t modified_ns = 0, changed_ns = 0;
};

// The identity of the open file `fd`; false when fstat fails.
bool IdentityOf(int fd, FileIdentity* identity);

// <table path>.verified
std::string StampPath(const std::string& table_path);

// Whether the stamp of `table_path` records this identity and checksum.
bool StampMatches(const std::string& table_path, const FileIdentity& identity, uint64_t checksum);

// Records that the file with this identity and checksum passed the full
// check, if its times are old enough (see above). Best effort: a directory
// that cannot be written only means the next process checks in full again.
void WriteStamp(const std::string& table_path, const FileIdentity& identity, uint64_t checksum);

}  // namespace arbiter
