#include "qrmatrix.h"

#include <qrencode.h>

#include <memory>

namespace Poll {

QrMatrix qrEncode(const QString &text)
{
    const QByteArray utf8 = text.toUtf8();
    // version 0: the smallest that holds it; case-sensitive, as a URL's query is
    std::unique_ptr<QRcode, void (*)(QRcode *)> code(
        QRcode_encodeString(utf8.constData(), 0, QR_ECLEVEL_M, QR_MODE_8, 1), QRcode_free);
    QrMatrix m;
    if (!code)
        return m;
    m.size = code->width;
    m.dark.resize(std::size_t(m.size) * std::size_t(m.size));
    for (std::size_t i = 0; i < m.dark.size(); ++i)
        m.dark[i] = code->data[i] & 1; // bit 0: dark module (qrencode.h, "QRcode")
    return m;
}

} // namespace Poll
