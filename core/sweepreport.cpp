#include "sweepreport.h"

#include "jsonout.h"

#include <QStringList>

namespace Core {

namespace {

bool parseValue(const QString &text, Tick *out)
{
    bool ok = false;
    const qulonglong v = text.trimmed().toULongLong(&ok);
    if (!ok || v > kMaxFileInteger)
        return false;
    *out = v;
    return true;
}

QString share(std::uint64_t k, std::uint64_t n)
{
    return QString::number(n ? double(k) / double(n) : 0.0, 'f', 6);
}

QString run(std::uint32_t r)
{
    return r == kNone ? QString() : QString::number(r);
}

const char *sideName(bool fencing)
{
    return fencing ? "fenced" : "unfenced";
}

} // namespace

QString parseSweepValues(const QString &text, std::vector<Tick> *values, const Quantity *quantity)
{
    values->clear();
    QString bad =
        QStringLiteral("\"%1\" is not FROM..TO, FROM..TO:STEP or V1,V2,...").arg(text);
    const int dots = int(text.indexOf(QLatin1String("..")));
    if (dots >= 0) {
        const int colon = int(text.indexOf(QLatin1Char(':'), dots));
        Tick from = 0, to = 0, step = 1;
        if (!parseValue(text.left(dots), &from) ||
            !parseValue(text.mid(dots + 2, colon < 0 ? -1 : colon - dots - 2), &to) ||
            (colon >= 0 && !parseValue(text.mid(colon + 1), &step)))
            return bad;
        if (step == 0)
            return QStringLiteral("\"%1\": the step must be at least 1").arg(text);
        if (to < from)
            return QStringLiteral("\"%1\": the range is empty").arg(text);
        if ((to - from) / step >= 10000)
            return QStringLiteral("\"%1\": more than 10000 values").arg(text);
        for (Tick v = from; v <= to; v += step)
            values->push_back(v);
    } else {
        for (const QString &part : text.split(QLatin1Char(','))) {
            Tick v = 0;
            if (!parseValue(part, &v))
                return bad;
            values->push_back(v);
        }
    }
    if (quantity) {
        for (Tick v : *values)
            if (v < quantity->min || v > quantity->max)
                return QStringLiteral("%1 takes %2..%3, not %4")
                    .arg(quantity->name)
                    .arg(quantity->min)
                    .arg(quantity->max)
                    .arg(v);
    }
    return {};
}

QString parseSweepAxis(const QString &text, SweepAxis *axis)
{
    const int eq = int(text.indexOf(QLatin1Char('=')));
    if (eq < 0)
        return QStringLiteral("\"%1\" is not QUANTITY=VALUES (quantities: %2)")
            .arg(text, quantityNames().join(QLatin1String(", ")));
    const QString name = text.left(eq).trimmed();
    axis->quantity = findQuantity(name);
    if (!axis->quantity)
        return QStringLiteral("unknown quantity \"%1\" (%2)")
            .arg(name, quantityNames().join(QLatin1String(", ")));
    return parseSweepValues(text.mid(eq + 1), &axis->values, axis->quantity);
}

QByteArray sweepCsv(const SweepSpec &spec, const SweepResult &result)
{
    QStringList header{spec.vary.quantity->name};
    if (spec.vary2.quantity)
        header << spec.vary2.quantity->name;
    header << QStringLiteral("runs");
    for (bool fencing : {false, true}) {
        for (const OutcomeSpec &o : outcomes()) {
            const QString stem = QLatin1String(sideName(fencing)) + QLatin1Char('_') + o.name;
            for (const char *column : {"", "_share", "_low", "_high", "_first", "_worst"})
                header << stem + QLatin1String(column);
        }
    }
    QString text = header.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (std::size_t p = 0; p < result.points.size(); ++p) {
        const PointResult &point = result.points[p];
        if (!point.done)
            continue;
        QStringList row{QString::number(spec.x(p))};
        if (spec.vary2.quantity)
            row << QString::number(*spec.x2(p));
        row << QString::number(point.runs);
        for (bool fencing : {false, true}) {
            for (const OutcomeStat &s : point.side(fencing)) {
                const Interval band = wilsonInterval(s.schedules, point.runs);
                row << QString::number(s.schedules) << share(s.schedules, point.runs)
                    << QString::number(band.low, 'f', 6) << QString::number(band.high, 'f', 6)
                    << run(s.firstRun) << run(s.worstRun);
            }
        }
        text += row.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return text.toUtf8();
}

QByteArray sweepJson(const SweepSpec &spec, const SweepResult &result)
{
    JsonOut out;
    const auto number = [&](double v) { out.raw(QByteArray::number(v, 'f', 6).constData()); };
    const auto axis = [&](const SweepAxis &a) {
        if (!a.quantity) {
            out.null();
            return;
        }
        out.raw("{").key("quantity").string(a.quantity->name).raw(", ").key("values").raw("[");
        for (std::size_t i = 0; i < a.values.size(); ++i)
            (i ? out.raw(", ") : out).number(a.values[i]);
        out.raw("]}");
    };
    out.raw("{\n  ").key("scenario").string(spec.scenario.title);
    out.raw(",\n  ").key("schedules").string(toString(spec.schedules));
    out.raw(",\n  ").key("jitter");
    if (spec.schedules == SweepSchedules::Near)
        out.number(spec.jitter);
    else
        out.null();
    out.raw(",\n  ").key("about").string(schedulesSentence(spec));
    out.raw(",\n  ").key("runs").number(spec.runsPerPoint());
    out.raw(",\n  ").key("seed").number(spec.seed);
    out.raw(",\n  ").key("vary");
    axis(spec.vary);
    out.raw(",\n  ").key("vary2");
    axis(spec.vary2);
    out.raw(",\n  ").key("points").raw("[");
    bool first = true;
    for (std::size_t p = 0; p < result.points.size(); ++p) {
        const PointResult &point = result.points[p];
        if (!point.done)
            continue;
        out.raw(first ? "\n    {" : ",\n    {");
        first = false;
        out.key("x").number(spec.x(p));
        out.raw(", ").key("x2");
        if (spec.vary2.quantity)
            out.number(*spec.x2(p));
        else
            out.null();
        out.raw(", ").key("runs").number(point.runs);
        for (bool fencing : {false, true}) {
            out.raw(",\n     ").key(sideName(fencing)).raw("{");
            for (std::size_t k = 0; k < kOutcomeCount; ++k) {
                const OutcomeStat &s = point.side(fencing)[k];
                const Interval band = wilsonInterval(s.schedules, point.runs);
                const QByteArray name = outcomes()[k].name.toUtf8();
                out.raw(k ? ", " : "").key(name.constData()).raw("{");
                out.key("schedules").number(s.schedules).raw(", ").key("share");
                number(point.runs ? double(s.schedules) / point.runs : 0.0);
                out.raw(", ").key("low");
                number(band.low);
                out.raw(", ").key("high");
                number(band.high);
                out.raw(", ").key("writes").number(s.writes).raw(", ").key("first");
                s.firstRun == kNone ? out.null() : out.number(s.firstRun);
                out.raw(", ").key("worst");
                s.worstRun == kNone ? out.null() : out.number(s.worstRun);
                out.raw("}");
            }
            out.raw("}");
        }
        out.raw("}");
    }
    out.raw(first ? "]\n}\n" : "\n  ]\n}\n");
    return QByteArray::fromStdString(out.buffer());
}

} // namespace Core
