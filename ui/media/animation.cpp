#include "animation.h"

#include "gifwriter.h"
#include "simulator.h"
#include "videowriter.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPainter>
#include <QRandomGenerator>
#include <QRegularExpression>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Animation {
namespace {

// How long the playhead takes from one step to the next, whatever the ticks between them: a
// long gap is no more to watch than a short one.
constexpr double kTravelSeconds = 0.8;

// The run whose steps are told: the top panel's in compare mode (fenced), as presentation mode
// tells it, else the one shown.
Core::Trace toldTrace(const Core::Scenario &s, const ExportOptions &o)
{
    return Core::simulate(s, o.compare ? true : o.fencing.value_or(s.fencing));
}

// Smoothstep: the playhead leaves a step and reaches the next one gently.
double ease(double t)
{
    return t * t * (3 - 2 * t);
}

int periodsFor(double seconds, int fps)
{
    return std::max(1, int(std::lround(seconds * fps)));
}

int even(int n)
{
    return n + (n & 1);
}

ExportOptions frameOptions(const AnimationOptions &options, const Plan &plan, const Frame &f)
{
    ExportOptions o = options.picture;
    o.caption.clear(); // each step's own caption, the verdict's at the end
    o.explain = {};
    if (f.kind == Frame::Kind::Verdict) {
        o.playhead = Core::kForever;
        o.playheadTravel = 0;
    } else {
        o.playhead = plan.steps[std::size_t(f.step)].tick;
        o.playheadTravel = f.travel;
    }
    return o;
}

QString cannotWrite(const QString &path, const QString &why)
{
    return QObject::tr("cannot write %1: %2").arg(path, why);
}

// A file beside the target, made with the permissions a new file gets (0666 less the umask),
// or the old target's; removed unless commit() renames it over the target.
class PartFile
{
public:
    explicit PartFile(const QString &target) : m_target(target)
    {
        const QFileInfo info(target);
        for (int attempt = 0; attempt < 100; ++attempt) {
            m_path = info.absoluteDir().filePath(
                QStringLiteral(".%1.%2.part")
                    .arg(info.fileName())
                    .arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0')));
            const int fd = ::open(QFile::encodeName(m_path).constData(),
                                  O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
            if (fd >= 0) {
                struct stat old;
                std::memset(&old, 0, sizeof old);
                if (::stat(QFile::encodeName(target).constData(), &old) == 0)
                    ::fchmod(fd, old.st_mode & 07777);
                ::close(fd);
                return;
            }
            if (errno != EEXIST)
                break;
        }
        m_error = QString::fromLocal8Bit(std::strerror(errno));
        m_path.clear();
    }
    ~PartFile()
    {
        if (!m_path.isEmpty())
            ::unlink(QFile::encodeName(m_path).constData());
    }
    PartFile(const PartFile &) = delete;
    PartFile &operator=(const PartFile &) = delete;

    QString error() const { return m_error; }
    QString path() const { return m_path; }
    // Renames it over the target: "" or why not.
    QString commit()
    {
        if (std::rename(QFile::encodeName(m_path).constData(),
                        QFile::encodeName(m_target).constData()) != 0)
            return QString::fromLocal8Bit(std::strerror(errno));
        m_path.clear();
        return {};
    }

private:
    QString m_target;
    QString m_path;
    QString m_error;
};

} // namespace

std::optional<AnimationOptions::Format> formatFor(const QString &path)
{
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext == QLatin1String("gif"))
        return AnimationOptions::Format::Gif;
    if (ext == QLatin1String("mp4"))
        return AnimationOptions::Format::Mp4;
    if (ext == QLatin1String("webm"))
        return AnimationOptions::Format::WebM;
    return std::nullopt;
}

std::vector<Step> storySteps(const Core::Scenario &scenario, const Core::Trace &trace)
{
    // the storyboard's steps and captions (presentation mode steps through the same ticks)
    std::vector<Step> steps;
    for (const Core::Tick tick : Exporter::keyframeTicks(scenario, trace))
        steps.push_back({tick, Exporter::stepCaption(scenario, trace, tick)});
    return steps;
}

double readingSeconds(const QString &caption)
{
    const qsizetype words =
        caption.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts).size();
    return std::min(12.0, 2.0 + 0.25 * double(words));
}

Plan plan(const Core::Scenario &scenario, const AnimationOptions &options)
{
    Plan p;
    p.fps = std::clamp(options.fps, AnimationLimits::kMinFps, AnimationLimits::kMaxFps);
    const ExportOptions &picture = options.picture;
    const Core::Trace trace = toldTrace(scenario, picture);
    // a long run is refused before a sentence is made for each of its steps
    const std::uint32_t first =
        picture.fromTick ? trace.firstEventAt(Core::Tick(std::ceil(*picture.fromTick))) : 0;
    const std::uint32_t last = picture.toTick
                                   ? trace.firstEventAt(Core::Tick(std::floor(*picture.toTick)) + 1)
                                   : std::uint32_t(trace.events.size());
    if (last > first && last - first > std::uint32_t(AnimationLimits::kMaxEvents)) {
        p.problem = QObject::tr("the run has %1 events, too many to animate (at most %2): choose "
                                "a range of it")
                        .arg(last - first)
                        .arg(AnimationLimits::kMaxEvents);
        return p;
    }
    for (const Step &step : storySteps(scenario, trace)) {
        // a range shows only its own steps
        if ((picture.fromTick && double(step.tick) < *picture.fromTick) ||
            (picture.toTick && double(step.tick) > *picture.toTick))
            continue;
        p.steps.push_back(step);
    }
    if (p.steps.size() > std::size_t(AnimationLimits::kMaxSteps)) {
        p.problem = QObject::tr("the run has %1 steps, too many to animate (at most %2): choose a "
                                "range of it")
                        .arg(p.steps.size())
                        .arg(AnimationLimits::kMaxSteps);
        p.steps.clear();
        return p;
    }
    // compare mode reads both runs' sentences at each step
    std::vector<Step> other;
    if (picture.compare)
        other = storySteps(scenario, Core::simulate(scenario, false));
    const auto holdFor = [&](const QString &caption) {
        return periodsFor(options.stepSeconds ? *options.stepSeconds : readingSeconds(caption),
                          p.fps);
    };
    const int travelFrames = std::max(2, int(std::lround(kTravelSeconds * p.fps)));
    int at = 0;
    for (std::size_t k = 0; k < p.steps.size(); ++k) {
        QString read = p.steps[k].caption;
        for (const Step &o : other)
            if (o.tick == p.steps[k].tick)
                read += QLatin1Char(' ') + o.caption;
        Frame hold;
        hold.kind = Frame::Kind::Hold;
        hold.step = int(k);
        hold.playhead = p.steps[k].tick;
        hold.start = at;
        hold.periods = holdFor(read);
        at += hold.periods;
        p.frames.push_back(hold);
        if (k + 1 == p.steps.size())
            break;
        const double distance = double(p.steps[k + 1].tick - p.steps[k].tick);
        for (int i = 1; i < travelFrames; ++i) {
            Frame travel = hold;
            travel.kind = Frame::Kind::Travel;
            travel.travel = distance * ease(double(i) / travelFrames);
            travel.start = at;
            travel.periods = 1;
            at += 1;
            p.frames.push_back(travel);
        }
    }
    Frame verdict;
    verdict.kind = Frame::Kind::Verdict;
    verdict.step = int(p.steps.size());
    verdict.playhead = Core::kForever;
    verdict.start = at;
    {
        const Core::Trace unfenced =
            picture.compare ? Core::simulate(scenario, false) : Core::Trace();
        QString read = Exporter::defaultCaption(scenario, trace);
        if (picture.compare)
            read += QLatin1Char(' ') + Exporter::defaultCaption(scenario, unfenced);
        verdict.periods = holdFor(read);
    }
    at += verdict.periods;
    p.frames.push_back(verdict);
    p.periods = at;

    // one size for every frame: the tallest page (captions differ in length), even for video
    QSizeF page;
    for (const Frame &f : p.frames) {
        if (f.kind == Frame::Kind::Travel)
            continue; // its step's page
        page = page.expandedTo(Exporter::pageSize(scenario, frameOptions(options, p, f)));
    }
    const double scale = std::clamp(picture.scale, 0.25, 8.0);
    p.size = QSize(even(int(std::lround(page.width() * scale))),
                   even(int(std::ceil(page.height() * scale))));
    return p;
}

QImage renderFrame(const Core::Scenario &scenario, const AnimationOptions &options,
                   const Plan &plan, std::size_t index, double scale)
{
    ExportOptions o = frameOptions(options, plan, plan.frames.at(index));
    o.scale = std::clamp(options.picture.scale, 0.25, 8.0) * scale;
    const QImage page = Exporter::renderImage(scenario, o);
    QImage frame(QSize(int(std::lround(plan.size.width() * scale)),
                       int(std::lround(plan.size.height() * scale))),
                 QImage::Format_RGB32);
    frame.fill(o.theme.background);
    QPainter p(&frame);
    p.drawImage(0, 0, page);
    p.end();
    return frame;
}

QString cancelledMessage()
{
    return QObject::tr("cancelled");
}

QString exportTo(const QString &path, const Core::Scenario &scenario,
                 const AnimationOptions &options, const Progress &progress)
{
    const std::optional<AnimationOptions::Format> format = formatFor(path);
    if (!format)
        return QObject::tr("cannot export to %1: unknown format (use .gif, .mp4 or .webm)")
            .arg(path);
    const VideoWriter::Codec codec = *format == AnimationOptions::Format::Mp4
                                         ? VideoWriter::Codec::H264
                                         : VideoWriter::Codec::Vp9;
    if (*format != AnimationOptions::Format::Gif) {
        const QString missing = VideoWriter::missingEncoder(codec);
        if (!missing.isEmpty())
            return QObject::tr("cannot export to %1: %2").arg(path, missing);
    }
    const Plan p = plan(scenario, options);
    if (!p.problem.isEmpty())
        return QObject::tr("cannot export to %1: %2").arg(path, p.problem);

    // written beside the target and renamed over it at the end: whole or not at all
    PartFile part(path);
    if (!part.error().isEmpty())
        return cannotWrite(path, part.error());

    const int total = int(p.frames.size());
    QString error;
    const auto frameDone = [&](std::size_t i) { return !progress || progress(int(i) + 1, total); };
    if (*format == AnimationOptions::Format::Gif) {
        GifWriter gif(part.path(), p.size, options.picture.theme, options.loop);
        error = gif.error();
        for (std::size_t i = 0; error.isEmpty() && i < p.frames.size(); ++i) {
            const Frame &f = p.frames[i];
            // centiseconds from the exact times, so rounding never adds up
            const int from = int(std::lround(f.start * 100.0 / p.fps));
            const int to = int(std::lround((f.start + f.periods) * 100.0 / p.fps));
            if (!gif.add(renderFrame(scenario, options, p, i), to - from))
                error = gif.error();
            else if (!frameDone(i))
                return cancelledMessage();
        }
        if (error.isEmpty() && !gif.finish())
            error = gif.error();
    } else {
        VideoWriter video(part.path(), codec, p.size, p.fps);
        error = video.error();
        for (std::size_t i = 0; error.isEmpty() && i < p.frames.size(); ++i) {
            const Frame &f = p.frames[i];
            if (!video.add(renderFrame(scenario, options, p, i), f.start, f.periods))
                error = video.error();
            else if (!frameDone(i))
                return cancelledMessage();
        }
        if (error.isEmpty() && !video.finish())
            error = video.error();
    }
    if (!error.isEmpty())
        return cannotWrite(path, error);
    const QString renamed = part.commit();
    if (!renamed.isEmpty())
        return cannotWrite(path, renamed);
    return {};
}

} // namespace Animation
