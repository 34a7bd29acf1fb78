#pragma once

// Screens of a given size for a test, through Qt's offscreen platform: it reads them from a
// file named by its `configfile` option (qtbase's qoffscreenintegration.cpp), so the test's
// main() calls this before it makes the QApplication. One logical DPI of 96, no window frame.

#include <QByteArray>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QRect>
#include <QString>
#include <QTemporaryDir>
#include <utility>

namespace TestSupport {

// The first screen is the primary one. The file is written into `dir`, which must outlive the
// application. False when it cannot be written.
inline bool useOffscreenScreens(const QTemporaryDir &dir,
                                const QList<std::pair<QString, QRect>> &screens)
{
    QJsonArray list;
    for (const auto &[name, r] : screens)
        list.append(QJsonObject{{QStringLiteral("name"), name},
                                {QStringLiteral("x"), r.x()},
                                {QStringLiteral("y"), r.y()},
                                {QStringLiteral("width"), r.width()},
                                {QStringLiteral("height"), r.height()},
                                {QStringLiteral("logicalDpi"), 96},
                                {QStringLiteral("logicalBaseDpi"), 96}});
    const QJsonObject config{{QStringLiteral("screens"), list},
                             {QStringLiteral("windowFrameMargins"), false}};
    const QString path = dir.filePath(QStringLiteral("screens.json"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(config).toJson()) < 0)
        return false;
    file.close();
    qputenv("QT_QPA_PLATFORM", QByteArray("offscreen:configfile=") + path.toLocal8Bit());
    return true;
}

} // namespace TestSupport
