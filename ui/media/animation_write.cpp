// Animation, part: the file written. The plan's frames encoded as a GIF or a video into a part
// file beside the target, flushed to the disk and only then renamed over it (the folder flushed
// after), so that the target is whole or untouched; a cancel or an error removes the part file.
#include "animation.h"

#include "gifwriter.h"
#include "savefile.h"
#include "videowriter.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Animation {
namespace {

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
    // Flushes it to the disk and renames it over the target: "" or why not. The writers close
    // it first. Flushed before the rename, as QSaveFile's commit() does for Core::saveWhole:
    // else a crash or a power cut soon after could leave the target renamed but empty or cut;
    // the folder is flushed after it, as Core::saveWhole does (core/savefile.h).
    QString commit()
    {
        // (fsync reaches the file's pages whichever descriptor wrote them)
        const int fd = ::open(QFile::encodeName(m_path).constData(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            return QString::fromLocal8Bit(std::strerror(errno));
        if (::fsync(fd) != 0) {
            const int error = errno;
            ::close(fd);
            return QString::fromLocal8Bit(std::strerror(error));
        }
        ::close(fd);
        if (std::rename(QFile::encodeName(m_path).constData(),
                        QFile::encodeName(m_target).constData()) != 0)
            return QString::fromLocal8Bit(std::strerror(errno));
        m_path.clear();
        Core::flushFolderOf(m_target); // the rename reaches the disk too
        return {};
    }

private:
    QString m_target;
    QString m_path;
    QString m_error;
};

} // namespace

QString cancelledMessage()
{
    return QObject::tr("cancelled");
}

namespace {

QString write(const QString &path, const std::function<Plan()> &makePlan, int loop,
              const Progress &progress)
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
    const Plan p = makePlan();
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
        GifWriter gif(part.path(), p.size, p.shots.front().picture.theme, loop);
        error = gif.error();
        for (std::size_t i = 0; error.isEmpty() && i < p.frames.size(); ++i) {
            const Frame &f = p.frames[i];
            // centiseconds from the exact times, so rounding never adds up
            const int from = int(std::lround(f.start * 100.0 / p.fps));
            const int to = int(std::lround((f.start + f.periods) * 100.0 / p.fps));
            if (!gif.add(renderFrame(p, i), to - from))
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
            if (!video.add(renderFrame(p, i), f.start, f.periods))
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

} // namespace

QString exportTo(const QString &path, const Core::Scenario &scenario,
                 const AnimationOptions &options, const Progress &progress)
{
    return write(
        path, [&] { return plan(scenario, options); }, options.loop, progress);
}

QString exportLesson(const QString &path, const Core::Lesson &lesson,
                     const AnimationOptions &options, const Progress &progress)
{
    return write(
        path, [&] { return lessonPlan(lesson, options); }, options.loop, progress);
}

} // namespace Animation
