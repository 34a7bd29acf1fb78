#pragma once

// Reads animations back with the libraries that wrote them: giflib for a GIF (every frame
// composed over the last, as a viewer shows it), libavformat/libavcodec for MP4 and WebM
// (converted back to RGB with the colour space the stream says).

#include <QImage>
#include <QString>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}
#include <cstring>
#include <gif_lib.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace MediaDecode {

struct Frame
{
    QImage image;        // RGB32
    double start = 0;    // seconds
    double duration = 0; // seconds
};

struct Animation
{
    std::vector<Frame> frames;
    QSize size;
    QString codec;                // "gif", "h264", "vp9"
    QString pixelFormat;          // videos: "yuv420p"
    std::optional<int> loopCount; // GIF: the NETSCAPE2.0 count, none without the block
    double seconds() const
    {
        return frames.empty() ? 0 : frames.back().start + frames.back().duration;
    }
    // The frame shown at `t` seconds.
    const Frame *at(double t) const
    {
        for (const Frame &f : frames)
            if (t >= f.start - 1e-9 && t < f.start + f.duration - 1e-9)
                return &f;
        return nullptr;
    }
};

inline Animation readGif(const QString &path)
{
    Animation out;
    out.codec = QStringLiteral("gif");
    int error = 0;
    GifFileType *gif = DGifOpenFileName(path.toLocal8Bit().constData(), &error);
    if (!gif || DGifSlurp(gif) != GIF_OK) {
        if (gif)
            DGifCloseFile(gif, &error);
        return out;
    }
    out.size = QSize(gif->SWidth, gif->SHeight);
    const ColorMapObject *global = gif->SColorMap;
    QImage canvas(out.size, QImage::Format_RGB32);
    const GifColorType bg = global ? global->Colors[gif->SBackGroundColor] : GifColorType{0, 0, 0};
    canvas.fill(qRgb(bg.Red, bg.Green, bg.Blue));
    double t = 0;
    for (int i = 0; i < gif->ImageCount; ++i) {
        const SavedImage &image = gif->SavedImages[i];
        for (int e = 0; e < image.ExtensionBlockCount; ++e) {
            const ExtensionBlock &b = image.ExtensionBlocks[e];
            // the application block of the first frame: NETSCAPE2.0 then its sub-block
            if (b.Function == APPLICATION_EXT_FUNC_CODE && b.ByteCount == 11 &&
                std::memcmp(b.Bytes, "NETSCAPE2.0", 11) == 0 && e + 1 < image.ExtensionBlockCount) {
                const ExtensionBlock &count = image.ExtensionBlocks[e + 1];
                if (count.ByteCount >= 3 && count.Bytes[0] == 1)
                    out.loopCount = count.Bytes[1] | (count.Bytes[2] << 8);
            }
        }
        GraphicsControlBlock gcb{DISPOSAL_UNSPECIFIED, false, 0, NO_TRANSPARENT_COLOR};
        DGifSavedExtensionToGCB(gif, i, &gcb);
        const ColorMapObject *map = image.ImageDesc.ColorMap ? image.ImageDesc.ColorMap : global;
        const GifImageDesc &d = image.ImageDesc;
        for (int y = 0; y < d.Height; ++y)
            for (int x = 0; x < d.Width; ++x) {
                const int index = image.RasterBits[y * d.Width + x];
                if (index == gcb.TransparentColor)
                    continue;
                const GifColorType c = map->Colors[index];
                canvas.setPixel(d.Left + x, d.Top + y, qRgb(c.Red, c.Green, c.Blue));
            }
        Frame f;
        f.image = canvas.copy();
        f.start = t;
        f.duration = gcb.DelayTime / 100.0;
        t += f.duration;
        out.frames.push_back(f);
    }
    DGifCloseFile(gif, &error);
    return out;
}

inline Animation readVideo(const QString &path)
{
    Animation out;
    AVFormatContext *format = nullptr;
    if (avformat_open_input(&format, path.toLocal8Bit().constData(), nullptr, nullptr) < 0)
        return out;
    avformat_find_stream_info(format, nullptr);
    const int s = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
    if (s < 0) {
        avformat_close_input(&format);
        return out;
    }
    AVStream *stream = format->streams[s];
    const AVCodec *codec = avcodec_find_decoder(stream->codecpar->codec_id);
    AVCodecContext *ctx = avcodec_alloc_context3(codec);
    avcodec_parameters_to_context(ctx, stream->codecpar);
    avcodec_open2(ctx, codec, nullptr);
    out.codec = QString::fromLatin1(avcodec_get_name(stream->codecpar->codec_id));
    out.size = QSize(stream->codecpar->width, stream->codecpar->height);
    out.pixelFormat =
        QString::fromLatin1(av_get_pix_fmt_name(AVPixelFormat(stream->codecpar->format)));
    const double base = av_q2d(stream->time_base);
    AVPacket *packet = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    SwsContext *sws = nullptr;
    const auto take = [&]() {
        while (avcodec_receive_frame(ctx, frame) == 0) {
            if (!sws) {
                sws = sws_getContext(frame->width, frame->height, AVPixelFormat(frame->format),
                                     frame->width, frame->height, AV_PIX_FMT_RGB32, SWS_BILINEAR,
                                     nullptr, nullptr, nullptr);
                const int space =
                    frame->colorspace == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : SWS_CS_ITU601;
                sws_setColorspaceDetails(sws, sws_getCoefficients(space),
                                         frame->color_range == AVCOL_RANGE_JPEG ? 1 : 0,
                                         sws_getCoefficients(space), 1, 0, 1 << 16, 1 << 16);
            }
            QImage image(frame->width, frame->height, QImage::Format_RGB32);
            uint8_t *planes[1] = {image.bits()};
            const int strides[1] = {int(image.bytesPerLine())};
            sws_scale(sws, frame->data, frame->linesize, 0, frame->height, planes, strides);
            Frame f;
            f.image = image;
            f.start = double(frame->best_effort_timestamp) * base;
            f.duration = double(frame->pkt_duration) * base;
            out.frames.push_back(f);
        }
    };
    while (av_read_frame(format, packet) >= 0) {
        if (packet->stream_index == s)
            avcodec_send_packet(ctx, packet);
        av_packet_unref(packet);
        take();
    }
    avcodec_send_packet(ctx, nullptr);
    take();
    // a frame lasts until the next one; the last one until the end the container gives (a
    // WebM block keeps no duration of its own, the segment's length has it)
    std::sort(out.frames.begin(), out.frames.end(),
              [](const Frame &a, const Frame &b) { return a.start < b.start; });
    for (std::size_t i = 0; i + 1 < out.frames.size(); ++i)
        out.frames[i].duration = out.frames[i + 1].start - out.frames[i].start;
    if (!out.frames.empty() && format->duration != AV_NOPTS_VALUE)
        out.frames.back().duration =
            double(format->duration) / AV_TIME_BASE - out.frames.back().start;
    sws_freeContext(sws);
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&ctx);
    avformat_close_input(&format);
    return out;
}

inline Animation read(const QString &path)
{
    return path.endsWith(QLatin1String(".gif"), Qt::CaseInsensitive) ? readGif(path)
                                                                     : readVideo(path);
}

// Mean absolute difference of the colour channels over `area` (all of a when empty), 0-255.
inline double meanDifference(const QImage &a, const QImage &b, QRect area = {})
{
    if (area.isEmpty())
        area = a.rect();
    area &= a.rect() & b.rect();
    double sum = 0;
    for (int y = area.top(); y <= area.bottom(); ++y) {
        const QRgb *la = reinterpret_cast<const QRgb *>(a.constScanLine(y));
        const QRgb *lb = reinterpret_cast<const QRgb *>(b.constScanLine(y));
        for (int x = area.left(); x <= area.right(); ++x)
            sum += std::abs(qRed(la[x]) - qRed(lb[x])) + std::abs(qGreen(la[x]) - qGreen(lb[x])) +
                   std::abs(qBlue(la[x]) - qBlue(lb[x]));
    }
    const double n = 3.0 * area.width() * area.height();
    return n > 0 ? sum / n : 0;
}

} // namespace MediaDecode
