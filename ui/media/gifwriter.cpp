#include "gifwriter.h"

#include <QFile>

#include <gif_lib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace {

int distance(QRgb a, QRgb b)
{
    // weighted for the eye (green counts most), enough to pick among a few hundred entries
    const int dr = qRed(a) - qRed(b);
    const int dg = qGreen(a) - qGreen(b);
    const int db = qBlue(a) - qBlue(b);
    return 2 * dr * dr + 4 * dg * dg + 3 * db * db;
}

QRgb blend(QRgb from, QRgb to, double t)
{
    const auto mix = [t](int a, int b) { return int(std::lround(a + (b - a) * t)); };
    return qRgb(mix(qRed(from), qRed(to)), mix(qGreen(from), qGreen(to)),
                mix(qBlue(from), qBlue(to)));
}

// giflib writes through this: into the file, every byte or an error
int writeToFile(GifFileType *gif, const GifByteType *bytes, int length)
{
    const int fd = *static_cast<int *>(gif->UserData);
    int done = 0;
    while (done < length) {
        const ssize_t n = ::write(fd, bytes + done, std::size_t(length - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return done;
        done += int(n);
    }
    return done;
}

} // namespace

GifPalette::GifPalette(const Theme &th)
{
    const QRgb background = th.background.rgb() | 0xff000000u;
    // every colour the renderer and the exporter paint with (and black and white, which text
    // on a filled bar is written in)
    const QColor painted[] = {
        th.foreground, th.muted,        th.laneStripe,     th.lease,         th.belief,
        th.zombie,     th.pause,        th.accepted,       th.rejected,      th.corrupted,
        th.lockedOut,  th.refusal,      th.write,          th.maxToken,      th.playhead,
        th.selection,  th.acceptedText, th.rejectedText,   th.corruptedText, th.lockedOutText,
        th.zombieText, th.maxTokenText, QColor(Qt::black), QColor(Qt::white)};
    std::vector<QRgb> seeds;
    for (const QColor &c : painted) {
        const QRgb rgb = c.rgb() | 0xff000000u;
        if (rgb != background && std::find(seeds.begin(), seeds.end(), rgb) == seeds.end())
            seeds.push_back(rgb);
    }
    // the ramps: as many even steps from the background to each colour as fit in 254 entries,
    // and the playhead's veil over each (the background at alpha 150 over it: 105/255 of it)
    const int levels =
        std::clamp(int((254 - seeds.size()) / std::max<std::size_t>(1, seeds.size())), 1, 16);
    m_colours.push_back(background);
    const auto add = [this](QRgb rgb) {
        if (m_colours.size() < 255 &&
            std::find(m_colours.begin(), m_colours.end(), rgb) == m_colours.end())
            m_colours.push_back(rgb);
    };
    for (const QRgb seed : seeds)
        add(blend(background, seed, 105.0 / 255.0));
    for (int k = levels; k >= 1; --k) // the strongest first: if room runs out, the faint go
        for (const QRgb seed : seeds)
            add(blend(background, seed, double(k) / levels));
}

std::uint8_t GifPalette::index(QRgb rgb)
{
    rgb |= 0xff000000u;
    const auto known = m_known.find(rgb);
    if (known != m_known.end())
        return known->second;
    std::size_t best = 0;
    int bestDistance = distance(rgb, m_colours[0]);
    for (std::size_t i = 1; i < m_colours.size() && bestDistance > 0; ++i) {
        const int d = distance(rgb, m_colours[i]);
        if (d < bestDistance) {
            bestDistance = d;
            best = i;
        }
    }
    m_known.emplace(rgb, std::uint8_t(best));
    return std::uint8_t(best);
}

GifWriter::GifWriter(const QString &path, QSize size, const Theme &theme, int loop)
    : m_path(path), m_size(size), m_palette(theme)
{
    m_fd =
        ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (m_fd < 0) {
        m_error = QString::fromLocal8Bit(std::strerror(errno));
        return;
    }
    int error = 0;
    m_gif = EGifOpen(&m_fd, writeToFile, &error);
    if (!m_gif) {
        fail(error);
        return;
    }
    EGifSetGifVersion(m_gif, true); // GIF89a: delays, transparency, looping
    std::vector<GifColorType> map(256, GifColorType{0, 0, 0});
    for (std::size_t i = 0; i < m_palette.colours().size(); ++i) {
        const QRgb c = m_palette.colours()[i];
        map[i] = GifColorType{GifByteType(qRed(c)), GifByteType(qGreen(c)), GifByteType(qBlue(c))};
    }
    ColorMapObject *colours = GifMakeMapObject(256, map.data());
    const int ok =
        colours ? EGifPutScreenDesc(m_gif, size.width(), size.height(), 8, 0, colours) : GIF_ERROR;
    GifFreeMapObject(colours);
    if (ok != GIF_OK) {
        fail(m_gif->Error);
        return;
    }
    if (loop != 1) {
        // NETSCAPE2.0: the number of times the animation is repeated after it played once,
        // 0 for ever. Played once, it has no such block, which every viewer reads alike.
        const int repeats = loop == 0 ? 0 : loop - 1;
        const GifByteType count[3] = {1, GifByteType(repeats & 0xff),
                                      GifByteType((repeats >> 8) & 0xff)};
        if (EGifPutExtensionLeader(m_gif, APPLICATION_EXT_FUNC_CODE) != GIF_OK ||
            EGifPutExtensionBlock(m_gif, 11, "NETSCAPE2.0") != GIF_OK ||
            EGifPutExtensionBlock(m_gif, 3, count) != GIF_OK ||
            EGifPutExtensionTrailer(m_gif) != GIF_OK) {
            fail(m_gif->Error);
            return;
        }
    }
    m_shown.assign(std::size_t(size.width()) * std::size_t(size.height()), 0);
}

GifWriter::~GifWriter()
{
    if (m_gif)
        EGifCloseFile(m_gif, nullptr);
    if (m_fd >= 0)
        ::close(m_fd);
}

void GifWriter::fail(int gifError)
{
    if (!m_error.isEmpty())
        return;
    if (gifError == E_GIF_ERR_WRITE_FAILED || gifError == E_GIF_ERR_DISK_IS_FULL)
        m_error = errno ? QString::fromLocal8Bit(std::strerror(errno))
                        : QStringLiteral("the disk is full");
    else
        m_error = QString::fromLatin1(GifErrorString(gifError));
}

bool GifWriter::add(const QImage &image, int centiseconds)
{
    if (!m_error.isEmpty())
        return false;
    const QImage frame = image.format() == QImage::Format_RGB32 ||
                                 image.format() == QImage::Format_ARGB32 ||
                                 image.format() == QImage::Format_ARGB32_Premultiplied
                             ? image
                             : image.convertToFormat(QImage::Format_RGB32);
    const int w = m_size.width();
    const int h = m_size.height();
    if (frame.size() != m_size) {
        m_error = QStringLiteral("a frame of another size");
        return false;
    }
    // the rectangle of pixels whose index changes
    std::vector<std::uint8_t> indices(std::size_t(w) * std::size_t(h));
    int left = w, right = -1, top = h, bottom = -1;
    for (int y = 0; y < h; ++y) {
        const QRgb *line = reinterpret_cast<const QRgb *>(frame.constScanLine(y));
        std::uint8_t *out = indices.data() + std::size_t(y) * std::size_t(w);
        const std::uint8_t *shown = m_shown.data() + std::size_t(y) * std::size_t(w);
        QRgb last = 0;
        std::uint8_t lastIndex = 0;
        bool changed = false;
        for (int x = 0; x < w; ++x) {
            const QRgb px = line[x];
            if (x == 0 || px != last) { // runs of one colour are most of a picture
                last = px;
                lastIndex = m_palette.index(px);
            }
            out[x] = lastIndex;
            if (m_first || lastIndex != shown[x]) {
                left = std::min(left, x);
                right = std::max(right, x);
                changed = true;
            }
        }
        if (changed) {
            top = std::min(top, y);
            bottom = y;
        }
    }
    if (bottom < 0) { // nothing changed: the last frame stays longer
        m_pendingDelay += centiseconds;
        return true;
    }
    if (m_hasPending && !writePending())
        return false;
    // the new frame: its rectangle, the unchanged pixels in it transparent
    const int rw = right - left + 1;
    const int rh = bottom - top + 1;
    m_pendingRect = QRect(left, top, rw, rh);
    m_pending.assign(std::size_t(rw) * std::size_t(rh), 0);
    std::uint8_t *rect = m_pending.data();
    for (int y = 0; y < rh; ++y) {
        const std::size_t row = std::size_t(top + y) * std::size_t(w) + std::size_t(left);
        for (int x = 0; x < rw; ++x) {
            const std::uint8_t now = indices[row + std::size_t(x)];
            std::uint8_t &shown = m_shown[row + std::size_t(x)];
            rect[std::size_t(y) * std::size_t(rw) + std::size_t(x)] =
                !m_first && now == shown ? GifPalette::kTransparent : now;
            shown = now;
        }
    }
    m_pendingDelay = centiseconds;
    m_hasPending = true;
    m_first = false;
    return true;
}

bool GifWriter::writePending()
{
    const int left = m_pendingRect.left();
    const int top = m_pendingRect.top();
    const int rw = m_pendingRect.width();
    const int rh = m_pendingRect.height();
    std::uint8_t *rect = m_pending.data();
    GraphicsControlBlock gcb;
    gcb.DisposalMode = DISPOSE_DO_NOT; // the next frame draws over this one
    gcb.UserInputFlag = false;
    gcb.DelayTime = std::clamp(m_pendingDelay, 0, 65535);
    gcb.TransparentColor = GifPalette::kTransparent;
    GifByteType extension[4];
    EGifGCBToExtension(&gcb, extension);
    if (EGifPutExtension(m_gif, GRAPHICS_EXT_FUNC_CODE, 4, extension) != GIF_OK ||
        EGifPutImageDesc(m_gif, left, top, rw, rh, false, nullptr) != GIF_OK) {
        fail(m_gif->Error);
        return false;
    }
    for (int y = 0; y < rh; ++y) {
        if (EGifPutLine(m_gif, rect + std::size_t(y) * std::size_t(rw), rw) != GIF_OK) {
            fail(m_gif->Error);
            return false;
        }
    }
    m_hasPending = false;
    return true;
}

bool GifWriter::finish()
{
    if (!m_error.isEmpty())
        return false;
    if (m_hasPending && !writePending())
        return false;
    int error = 0;
    const int closed = EGifCloseFile(m_gif, &error);
    m_gif = nullptr;
    if (closed != GIF_OK) {
        fail(error);
        return false;
    }
    // (flushed to the disk where the file is renamed over its target: Animation's PartFile)
    const int fileClosed = ::close(m_fd);
    m_fd = -1;
    if (fileClosed != 0) {
        m_error = QString::fromLocal8Bit(std::strerror(errno));
        return false;
    }
    return true;
}
