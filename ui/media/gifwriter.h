#pragma once

// An animated GIF through giflib, written frame by frame to a file.
//
// One global palette made from the theme's colours: each colour the renderer paints with, and
// a ramp of blends from the background to it, which is what anti-aliased edges and text and
// the playhead's veil are made of. Every pixel takes its nearest entry, with no dithering, so
// text stays crisp and a flat area stays one index (which LZW packs well). Frame differencing:
// each frame after the first stores only the rectangle that changed, and inside it every pixel
// that did not change is transparent. A frame equal to the last one lengthens the last one.

#include "theme.h"

#include <QImage>
#include <QRect>
#include <QString>

#include <cstdint>
#include <unordered_map>
#include <vector>

struct GifFileType;

class GifPalette
{
public:
    // At most 255 colours: the last index of 256 is kept for "unchanged" (transparent).
    explicit GifPalette(const Theme &theme);
    const std::vector<QRgb> &colours() const { return m_colours; }
    // The nearest colour's index (remembered per colour: a frame has few distinct colours).
    std::uint8_t index(QRgb rgb);
    static constexpr std::uint8_t kTransparent = 255;

private:
    std::vector<QRgb> m_colours;
    std::unordered_map<QRgb, std::uint8_t> m_known;
};

class GifWriter
{
public:
    GifWriter(const QString &path, QSize size, const Theme &theme, int loop);
    ~GifWriter();
    GifWriter(const GifWriter &) = delete;
    GifWriter &operator=(const GifWriter &) = delete;

    // "" when the file is open and its header written, else why not.
    QString error() const { return m_error; }
    // A frame of `size` pixels shown for `centiseconds`. Returns false on an error.
    bool add(const QImage &frame, int centiseconds);
    // Writes the last frame and the trailer, and closes the file. Returns false on an error.
    bool finish();

private:
    bool writePending();
    void fail(int gifError);

    QString m_path;
    QSize m_size;
    GifPalette m_palette;
    GifFileType *m_gif = nullptr;
    QString m_error;
    int m_fd = -1;
    std::vector<std::uint8_t> m_shown;   // what the viewer sees after the frames written
    std::vector<std::uint8_t> m_pending; // the last frame's changed rectangle, not yet written
    QRect m_pendingRect;
    int m_pendingDelay = 0;
    bool m_hasPending = false;
    bool m_first = true;
};
