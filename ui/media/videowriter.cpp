#include "videowriter.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <QFile>

namespace {

QString averror(int code)
{
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, text, sizeof text);
    return QString::fromLocal8Bit(text);
}

} // namespace

const char *VideoWriter::encoderName(Codec codec)
{
    return codec == Codec::H264 ? "libx264" : "libvpx-vp9";
}

QString VideoWriter::missingEncoder(Codec codec, const char *encoder)
{
    if (!encoder)
        encoder = encoderName(codec);
    if (avcodec_find_encoder_by_name(encoder))
        return {};
    return QStringLiteral("this FFmpeg has no %1 encoder (%2)")
        .arg(codec == Codec::H264 ? QStringLiteral("H.264") : QStringLiteral("VP9"),
             QString::fromLatin1(encoder));
}

VideoWriter::VideoWriter(const QString &path, Codec codec, QSize size, int fps, const char *encoder)
    : m_size(size)
{
    // the CLI says what failed in one line of its own: FFmpeg's own messages (x264's statistics,
    // a muxer's complaint on a full disk) would add lines to it
    av_log_set_level(AV_LOG_QUIET);
    if (!encoder)
        encoder = encoderName(codec);
    const AVCodec *found = avcodec_find_encoder_by_name(encoder);
    if (!found) {
        m_error = missingEncoder(codec, encoder);
        return;
    }
    const QByteArray file = QFile::encodeName(path);
    const char *muxer = codec == Codec::H264 ? "mp4" : "webm";
    int ret = avformat_alloc_output_context2(&m_format, nullptr, muxer, file.constData());
    if (ret < 0 || !m_format) {
        fail(QStringLiteral("no %1 muxer").arg(QLatin1String(muxer)), ret);
        return;
    }
    m_stream = avformat_new_stream(m_format, nullptr);
    m_codec = avcodec_alloc_context3(found);
    m_frame = av_frame_alloc();
    m_packet = av_packet_alloc();
    if (!m_stream || !m_codec || !m_frame || !m_packet) {
        fail(QStringLiteral("out of memory"), AVERROR(ENOMEM));
        return;
    }
    m_codec->width = size.width();
    m_codec->height = size.height();
    m_codec->pix_fmt = AV_PIX_FMT_YUV420P;
    m_codec->time_base = AVRational{1, fps};
    m_codec->framerate = AVRational{fps, 1};
    m_codec->sample_aspect_ratio = AVRational{1, 1};
    // BT.709, limited range, said in the stream: a player guessing from the size would take
    // 709 for HD anyway, but not for a small picture
    m_codec->colorspace = AVCOL_SPC_BT709;
    m_codec->color_primaries = AVCOL_PRI_BT709;
    m_codec->color_trc = AVCOL_TRC_BT709;
    m_codec->color_range = AVCOL_RANGE_MPEG;
    m_codec->max_b_frames = 0; // no reordering: a frame's packet is out before the next frame
    m_codec->gop_size = 10 * fps;
    m_codec->thread_count = 2;
    if (codec == Codec::H264) {
        av_opt_set(m_codec->priv_data, "preset", "veryfast", 0);
        av_opt_set(m_codec->priv_data, "crf", "23", 0);
    } else {
        // VP9's realtime speed: at its default speed libvpx encodes much slower than the video
        // plays, and a user waits for the export to finish
        av_opt_set(m_codec->priv_data, "deadline", "realtime", 0);
        av_opt_set_int(m_codec->priv_data, "cpu-used", 8, 0);
        av_opt_set_int(m_codec->priv_data, "row-mt", 1, 0);
        av_opt_set_int(m_codec->priv_data, "crf", 32, 0);
        m_codec->bit_rate = 0; // constant quality
    }
    if (m_format->oformat->flags & AVFMT_GLOBALHEADER)
        m_codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    ret = avcodec_open2(m_codec, found, nullptr);
    if (ret < 0) {
        fail(QStringLiteral("cannot start the %1 encoder").arg(QLatin1String(encoder)), ret);
        return;
    }
    ret = avcodec_parameters_from_context(m_stream->codecpar, m_codec);
    if (ret < 0) {
        fail(QStringLiteral("cannot set up the stream"), ret);
        return;
    }
    m_stream->time_base = m_codec->time_base;
    m_stream->avg_frame_rate = m_codec->framerate;

    ret = avio_open(&m_format->pb, file.constData(), AVIO_FLAG_WRITE);
    if (ret < 0) {
        fail(QString(), ret);
        return;
    }
    m_fileOpen = true;
    AVDictionary *options = nullptr;
    if (codec == Codec::H264) // the index first: a slide starts playing before it has it all
        av_dict_set(&options, "movflags", "+faststart", 0);
    ret = avformat_write_header(m_format, &options);
    av_dict_free(&options);
    if (ret < 0) {
        fail(QString(), ret);
        return;
    }

    m_frame->format = AV_PIX_FMT_YUV420P;
    m_frame->width = size.width();
    m_frame->height = size.height();
    ret = av_frame_get_buffer(m_frame, 0);
    if (ret < 0) {
        fail(QStringLiteral("out of memory"), ret);
        return;
    }
    m_scale = sws_getContext(size.width(), size.height(), AV_PIX_FMT_RGB32, size.width(),
                             size.height(), AV_PIX_FMT_YUV420P, SWS_BILINEAR | SWS_ACCURATE_RND,
                             nullptr, nullptr, nullptr);
    if (!m_scale) {
        fail(QStringLiteral("cannot convert the pictures to yuv420p"), AVERROR(EINVAL));
        return;
    }
    const int *bt709 = sws_getCoefficients(SWS_CS_ITU709);
    // RGB in, full range; YUV out, limited range (as tagged above)
    sws_setColorspaceDetails(m_scale, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16);
}

VideoWriter::~VideoWriter()
{
    sws_freeContext(m_scale);
    av_packet_free(&m_packet);
    av_frame_free(&m_frame);
    avcodec_free_context(&m_codec);
    if (m_format) {
        if (m_fileOpen)
            avio_closep(&m_format->pb);
        avformat_free_context(m_format);
    }
}

bool VideoWriter::fail(const QString &what, int code)
{
    if (m_error.isEmpty())
        m_error = what.isEmpty() ? averror(code) : what + QStringLiteral(": ") + averror(code);
    return false;
}

bool VideoWriter::add(const QImage &image, int start, int periods)
{
    if (!m_error.isEmpty())
        return false;
    const QImage frame =
        image.format() == QImage::Format_RGB32 || image.format() == QImage::Format_ARGB32
            ? image
            : image.convertToFormat(QImage::Format_RGB32);
    if (frame.size() != m_size) {
        m_error = QStringLiteral("a frame of another size");
        return false;
    }
    int ret = av_frame_make_writable(m_frame);
    if (ret < 0)
        return fail(QStringLiteral("out of memory"), ret);
    const uint8_t *planes[1] = {frame.constBits()};
    const int strides[1] = {int(frame.bytesPerLine())};
    sws_scale(m_scale, planes, strides, 0, m_size.height(), m_frame->data, m_frame->linesize);
    m_frame->pts = start;
    m_periods[start] = periods;
    return send(m_frame);
}

bool VideoWriter::send(AVFrame *frame)
{
    int ret = avcodec_send_frame(m_codec, frame);
    if (ret < 0)
        return fail(QStringLiteral("cannot encode"), ret);
    while (true) {
        ret = avcodec_receive_packet(m_codec, m_packet);
        if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF)
            return true;
        if (ret < 0)
            return fail(QStringLiteral("cannot encode"), ret);
        // its own length, which the container keeps: the last frame's hold too
        const auto length = m_periods.find(m_packet->pts);
        if (length != m_periods.end())
            m_packet->duration = length->second;
        av_packet_rescale_ts(m_packet, m_codec->time_base, m_stream->time_base);
        m_packet->stream_index = m_stream->index;
        ret = av_interleaved_write_frame(m_format, m_packet); // takes the packet's data
        if (ret < 0)
            return fail(QString(), ret);
        if (m_format->pb->error < 0)
            return fail(QString(), m_format->pb->error);
    }
}

bool VideoWriter::finish()
{
    if (!m_error.isEmpty())
        return false;
    if (!send(nullptr))
        return false;
    int ret = av_write_trailer(m_format);
    if (ret < 0)
        return fail(QString(), ret);
    if (m_format->pb->error < 0)
        return fail(QString(), m_format->pb->error);
    m_fileOpen = false;
    ret = avio_closep(&m_format->pb);
    if (ret < 0)
        return fail(QString(), ret);
    return true;
}
