// fencescope-iconrender IN.svg OUT.png SIZE: the build renders the hicolor PNG icons from the one
// SVG, so the sizes never drift from the drawing. The SVG has no text, so no fonts are needed.

#include "savefile.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>

#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    bool ok = false;
    const int size = args.size() == 4 ? args.at(3).toInt(&ok) : 0;
    if (!ok || size < 1 || size > 4096) {
        std::fprintf(stderr, "usage: fencescope-iconrender IN.svg OUT.png SIZE\n");
        return 2;
    }
    QSvgRenderer svg(args.at(1));
    if (!svg.isValid()) {
        std::fprintf(stderr, "fencescope-iconrender: %s: not a valid SVG\n",
                     qPrintable(args.at(1)));
        return 1;
    }
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    svg.render(&painter, QRectF(0, 0, size, size));
    painter.end();
    QByteArray png;
    QBuffer buffer(&png);
    if (!buffer.open(QIODevice::WriteOnly) || !image.save(&buffer, "PNG")) {
        std::fprintf(stderr, "fencescope-iconrender: cannot encode %s as PNG\n",
                     qPrintable(args.at(2)));
        return 1;
    }
    // as every save: whole or not at all, and the folder flushed after the rename
    if (const std::optional<Core::SaveFailure> failed = Core::saveWhole(args.at(2), png)) {
        std::fprintf(stderr, "fencescope-iconrender: %s\n",
                     qPrintable(Core::cannotWrite(args.at(2), *failed)));
        return 1;
    }
    return 0;
}
