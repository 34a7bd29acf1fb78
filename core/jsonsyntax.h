#pragma once

// The careful second look at a scenario file that did not load: why its text is not a JSON
// document a scenario file may be, with the line and column. Slow (it builds a QJsonDocument)
// and only run after the fast loader (scenariofile.cpp, on simdjson) gave up, so that every
// syntax error is worded the same however the fast path noticed it.

#include <QByteArray>
#include <QString>

namespace Core::JsonSyntax {

// The first problem in `json`, as "line L, column C: problem", or empty when there is none.
// Beyond what Qt's parser refuses, a scenario file may not contain NUL bytes, raw control
// characters in strings, lone UTF-16 surrogates in \u escapes, numbers that JSON's grammar
// does not allow (Qt takes "1." and ".5"), or nesting deeper than `maxDepth`.
QString problem(const QByteArray &json, int maxDepth);

// "line L, column C: problem" for a byte offset; columns count characters, not bytes.
QString located(const QByteArray &json, qsizetype offset, const QString &problem);

} // namespace Core::JsonSyntax
