#pragma once

// A video through FFmpeg's libraries: H.264 (libx264) in MP4 or VP9 (libvpx) in WebM, in the
// form slide software plays: 4:2:0 chroma (yuv420p; H.264 in High 4:4:4 is refused by
// QuickTime and by most browsers: matplotlib #5340) and even width and height (4:2:0 halves
// both). Frames come with their start and length in frame periods: a hold is one frame with a
// long duration, so a still step costs one frame, not one per period.

#include <QImage>
#include <QString>

#include <map>

struct AVCodecContext;
struct AVFormatContext;
struct AVFrame;
struct AVPacket;
struct AVStream;
struct SwsContext;

class VideoWriter
{
public:
    enum class Codec
    {
        H264,
        Vp9
    };

    // The encoder FFmpeg has for `codec` ("libx264", "libvpx-vp9").
    static const char *encoderName(Codec codec);
    // "" when FFmpeg has `encoder` (empty: encoderName(codec)), else one line saying it has not.
    static QString missingEncoder(Codec codec, const char *encoder = nullptr);

    // `size` must be even on both sides. `encoder` empty: encoderName(codec).
    VideoWriter(const QString &path, Codec codec, QSize size, int fps,
                const char *encoder = nullptr);
    ~VideoWriter();
    VideoWriter(const VideoWriter &) = delete;
    VideoWriter &operator=(const VideoWriter &) = delete;

    // "" when the encoder and the file are open and the header written, else why not.
    QString error() const { return m_error; }
    // A frame shown from `start` for `periods` frame periods (1 / fps). False on an error.
    bool add(const QImage &frame, int start, int periods);
    // Drains the encoder, writes the trailer, closes the file. False on an error.
    bool finish();

private:
    bool send(AVFrame *frame);
    bool fail(const QString &what, int averror);

    QString m_error;
    QSize m_size;
    AVFormatContext *m_format = nullptr;
    AVCodecContext *m_codec = nullptr;
    AVStream *m_stream = nullptr;
    AVFrame *m_frame = nullptr;
    AVPacket *m_packet = nullptr;
    SwsContext *m_scale = nullptr;
    bool m_fileOpen = false;
    std::map<long long, int> m_periods; // a frame's length by its start: packets carry it
};
