#include "svgdocument.h"

#include "theme.h"

#include <QBuffer>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgGenerator>

namespace Render {

QByteArray renderSvgDocument(const SvgDocument &doc, const std::function<void(QPainter *)> &paint)
{
    QByteArray bytes;
    {
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setResolution(96);
        svg.setSize(doc.size.toSize());
        svg.setViewBox(QRectF(QPointF(0, 0), doc.size));
        svg.setTitle(doc.title);
        if (!doc.description.isEmpty())
            svg.setDescription(doc.description);
        QPainter painter(&svg);
        paint(&painter);
    }
    // QSvgGenerator names only the face in use; a viewer without it gets the fallbacks
    static const QRegularExpression family(QStringLiteral("font-family=\"[^\"]*\""));
    return QString::fromUtf8(bytes)
        .replace(family, QStringLiteral("font-family=\"%1\"").arg(Theme::cssFontFamilies()))
        .toUtf8();
}

} // namespace Render
