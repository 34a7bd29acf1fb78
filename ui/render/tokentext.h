#pragma once

// Tokens and values in the words the timeline writes them in, for labels and hover text.

#include "scenario.h"
#include "tokensource.h"
#include "trace.h"

#include <QObject>
#include <QString>

namespace Render {

inline QString quoted(const QString &v)
{
    return QStringLiteral("'%1'").arg(v);
}

// The token a write carried: its epoch's (Trace::tokenOf).
inline Core::Token writeToken(const Core::Trace &t, const Core::Write &w)
{
    return t.tokenOf(w);
}

// A token as the timeline writes it: "token 7" from a counter; in the source's own form from
// the others ("rev 7", "0x1_00000003", "epoch 3", "lock:exclusive:7": core/tokensource.h).
inline QString tokenLabel(const Core::Scenario &s, Core::Token token)
{
    return s.tokens == Core::TokenSource::Counter ? QObject::tr("token %1").arg(token)
                                                  : Core::formatToken(s.tokens, token);
}

// The bare number or short form (a narrow lease bar, "max 3").
inline QString tokenShort(const Core::Scenario &s, Core::Token token)
{
    return s.tokens == Core::TokenSource::Counter ? QString::number(token)
                                                  : Core::formatToken(s.tokens, token);
}

// A token for a tooltip: its label, and from a source other than a counter what the number
// means there ("rev 7 (create revision 7 of the lock key)": core/tokensource.h).
inline QString tokenMeaning(const Core::Scenario &s, Core::Token token)
{
    if (s.tokens == Core::TokenSource::Counter)
        return tokenLabel(s, token);
    return QObject::tr("%1 (%2)").arg(tokenLabel(s, token), Core::describeToken(s.tokens, token));
}

} // namespace Render
