#pragma once

// A lesson (docs/LESSONS.md): scenes, each a scenario with a view, narration and optionally a
// question whose options are claims the simulator checks on the scene's run. Plain value types,
// as the scenario is (scenario.h); the file format is lessonfile.h, the judging of claims
// lessonclaims.h, the walk through a lesson for presenting it lessonplay.h.

#include "scenario.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace Core {

// What a claim says happened to a write, or that some (or no) write met.
enum class ClaimOutcome : std::uint8_t
{
    Accepted,
    Rejected,
    Corrupted,
    LockedOut,
    Skipped, // a checked write that found its lease expired and sent nothing
    Partial, // "some" and "no" only: an update across storages half applied
};

// A write named so that it survives a drag: by its client and value, or by its client and its
// place among that client's writes in the order they run ("A's second write"); never by tick.
struct WriteRef
{
    QString client;
    std::optional<QString> value; // the write's value
    QString storage;              // only writes to this storage; empty: any
    std::uint32_t nth = 0;        // 1-based, in run order (at, then listed order); 0: not given
    friend bool operator==(const WriteRef &a, const WriteRef &b)
    {
        return a.client == b.client && a.value == b.value && a.storage == b.storage &&
               a.nth == b.nth;
    }
};

// A grant (not a renewal) by its client and its place among that client's grants in the run.
struct GrantRef
{
    QString client;
    std::uint32_t nth = 0; // 1-based; 0: not given, the client's only grant
    friend bool operator==(const GrantRef &a, const GrantRef &b)
    {
        return a.client == b.client && a.nth == b.nth;
    }
};

enum class ClaimKind : std::uint8_t
{
    Write,  // a write's outcome
    Final,  // a storage's final value or max_token
    Grant,  // a grant's token: a value, or against another grant's
    Some,   // some write has the outcome (or some update is partial)
    No,     // no write has it (no update is partial)
    Lock,   // the lock service's leases: never two holders at once, or two at some tick
    Belief, // the clients' beliefs: never two believers at once, or two at some tick
};

// How a grant claim judges the grant's token.
enum class TokenTest : std::uint8_t
{
    Equals,  // the token is `token`
    Written, // the token reads `tokenText` in its source's own form ("rev 5", "term 3")
    NoToken, // the lock hands out no token (Redlock, `none`)
    Above,   // higher than `other`'s token
    Below,   // lower than `other`'s token
    Same,    // equal to `other`'s token
};

// One checkable statement about a run. Only the fields of its kind mean anything.
struct Claim
{
    ClaimKind kind = ClaimKind::Write;
    WriteRef write;                                // Write
    ClaimOutcome outcome = ClaimOutcome::Accepted; // Write, Some, No
    QString storage;                               // Final
    std::optional<QString> finalValue;             // Final: ends with this value, or
    std::optional<Token> finalMaxToken;            // Final: ends with this max_token
    GrantRef grant;                                // Grant
    TokenTest test = TokenTest::Equals;            // Grant
    Token token = 0;                               // Grant, Equals
    QString tokenText;                             // Grant, Written
    GrantRef other;                                // Grant, Above / Below / Same
    bool exclusive = true; // Lock, Belief: "never two at once" (false: "two at some tick")

    friend bool operator==(const Claim &a, const Claim &b);
    friend bool operator!=(const Claim &a, const Claim &b) { return !(a == b); }
};

struct LessonOption
{
    Claim claim;
    QString feedback; // the misconception behind it, shown at the reveal (may be empty)
    QJsonObject extra;
    friend bool operator==(const LessonOption &a, const LessonOption &b)
    {
        return a.claim == b.claim && a.feedback == b.feedback && a.extra == b.extra;
    }
};

struct LessonQuestion
{
    QString prompt;
    Tick freeze = 0; // the run stops here before the reveal: the state at the end of this tick
    std::vector<LessonOption> options; // 2 to 5: A to E
    QString explanation;               // the author's, shown after the reveal (may be empty)
    QJsonObject extra;
    friend bool operator==(const LessonQuestion &a, const LessonQuestion &b)
    {
        return a.prompt == b.prompt && a.freeze == b.freeze && a.options == b.options &&
               a.explanation == b.explanation && a.extra == b.extra;
    }
};

// What compare mode shows under the scene's run.
enum class SceneCompare : std::uint8_t
{
    Off,
    Fencing, // fenced over unfenced
    Source,  // the scenario's own token source over SceneView::compareSource
};

struct SceneView
{
    std::optional<bool> fencing; // unset: the scenario's own switch
    SceneCompare compare = SceneCompare::Off;
    TokenSource compareSource = TokenSource::Counter; // SceneCompare::Source only
    std::optional<Tick> from;                         // the time range shown; unset: the whole run
    std::optional<Tick> to;
    std::optional<Tick> playhead; // where the playhead starts; unset: before the first event
    QJsonObject extra;
    friend bool operator==(const SceneView &a, const SceneView &b)
    {
        return a.fencing == b.fencing && a.compare == b.compare &&
               (a.compare != SceneCompare::Source || a.compareSource == b.compareSource) &&
               a.from == b.from && a.to == b.to && a.playhead == b.playhead && a.extra == b.extra;
    }
};

// Where a scene's scenario comes from: what a save writes back.
enum class SceneSource : std::uint8_t
{
    Preset, // a built-in scenario by name
    Path,   // a scenario file, by a path relative to the lesson
    Inline, // the scenario itself, inside the lesson
};

struct LessonScene
{
    QString title; // may be empty: the scenario's title is shown
    SceneSource source = SceneSource::Inline;
    QString reference; // Preset: the name; Path: the path as written
    Scenario scenario; // as loaded, whatever the source
    SceneView view;
    QString narration; // Markdown: **bold**, *italics*, `code` (may be empty)
    std::optional<LessonQuestion> question;
    QJsonObject extra;

    // The switch the scene's run uses: the view's, else the scenario's.
    bool fencing() const { return view.fencing.value_or(scenario.fencing); }
    friend bool operator==(const LessonScene &a, const LessonScene &b)
    {
        return a.title == b.title && a.source == b.source && a.reference == b.reference &&
               a.scenario == b.scenario && a.view == b.view && a.narration == b.narration &&
               a.question == b.question && a.extra == b.extra;
    }
};

struct Lesson
{
    QString title;
    QString audience;
    QStringList objectives;
    QStringList sources; // what the lesson's claims about real systems rest on
    std::vector<LessonScene> scenes;
    QJsonObject extra;
    friend bool operator==(const Lesson &a, const Lesson &b)
    {
        return a.title == b.title && a.audience == b.audience && a.objectives == b.objectives &&
               a.sources == b.sources && a.scenes == b.scenes && a.extra == b.extra;
    }
};

// The letter of option i: "A" to "E".
QString optionLetter(std::size_t i);
// The claim as a sentence, what an option shows: "A's write \"A\" is rejected", "db ends with
// the value \"B\"", "B's grant carries token 2", "some write is corrupted", "the lock is never
// held by two clients at once". The sentence says exactly what the simulator checks.
QString claimText(const Claim &claim);
// The names a claim gives a write and a grant: "A's write \"A\"", "A's second write to index",
// "B's grant", "B's second grant".
QString writeRefText(const WriteRef &write);
QString grantRefText(const GrantRef &grant);
// "accepted", "rejected", "corrupted", "lockedOut", "skipped", "partial": the file's words.
QString toString(ClaimOutcome outcome);
bool claimOutcomeFromString(const QString &name, ClaimOutcome *outcome);

} // namespace Core
