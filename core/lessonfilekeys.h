#pragma once

// The keys and words of lesson file version 1 (docs/LESSONS.md): one list, which the reader
// (lessonfileread.cpp) matches keys against and the writer (lessonfilewrite.cpp) spells them
// from. Internal to the core.

namespace Core::LessonFormat {

// the root
inline constexpr char kVersion[] = "fencescope-lesson";
inline constexpr char kTitle[] = "title";
inline constexpr char kAudience[] = "audience";
inline constexpr char kObjectives[] = "objectives";
inline constexpr char kSources[] = "sources";
inline constexpr char kScenes[] = "scenes";
// scenes[i] (and kTitle)
inline constexpr char kPreset[] = "preset";
inline constexpr char kPath[] = "path";
inline constexpr char kScenario[] = "scenario";
inline constexpr char kView[] = "view";
inline constexpr char kNarration[] = "narration";
inline constexpr char kQuestion[] = "question";
// scenes[i].view
inline constexpr char kFencing[] = "fencing";
inline constexpr char kCompare[] = "compare";
inline constexpr char kFrom[] = "from";
inline constexpr char kTo[] = "to";
inline constexpr char kPlayhead[] = "playhead";
inline constexpr char kCompareFencing[] = "fencing"; // compare's value for fenced over unfenced
// scenes[i].question
inline constexpr char kPrompt[] = "prompt";
inline constexpr char kFreeze[] = "freeze";
inline constexpr char kOptions[] = "options";
inline constexpr char kExplanation[] = "explanation";
// scenes[i].question.options[j]
inline constexpr char kClaim[] = "claim";
inline constexpr char kFeedback[] = "feedback";
// a claim: its kind is the key it has
inline constexpr char kWrite[] = "write";
inline constexpr char kIs[] = "is";
inline constexpr char kStorage[] = "storage";
inline constexpr char kValue[] = "value";
inline constexpr char kMaxToken[] = "maxToken";
inline constexpr char kGrant[] = "grant";
inline constexpr char kToken[] = "token";
inline constexpr char kAbove[] = "above";
inline constexpr char kBelow[] = "below";
inline constexpr char kSame[] = "same";
inline constexpr char kSome[] = "some";
inline constexpr char kNo[] = "no";
inline constexpr char kLock[] = "lock";
inline constexpr char kBelief[] = "belief";
inline constexpr char kExclusive[] = "exclusive";
inline constexpr char kOverlapping[] = "overlapping";
// a write or a grant named in a claim
inline constexpr char kClient[] = "client";
inline constexpr char kNth[] = "nth";

} // namespace Core::LessonFormat
