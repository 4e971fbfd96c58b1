// A job as the HTTP API writes it, in the vocabulary of every other record
// (docs/schema/job.schema.json): lowercase names, numbers as numbers, null
// where absent.
#pragma once

#include <string>

#include "arbiter/v1/arbiter.pb.h"

namespace arbiter::http {

// {"type": "job", "id": ..., "state": "running", ...}, no newline.
std::string JobJson(const v1::Job& job);
// {"type": "jobs", "jobs": [...]}.
std::string JobListJson(const v1::ListJobsResponse& list);

}  // namespace arbiter::http
