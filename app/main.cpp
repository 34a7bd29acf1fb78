// fencescope: the desktop application.

#include "mainwindow.h"

#include <QApplication>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("FenceScope"));
    QApplication::setOrganizationName(QStringLiteral("FenceScope"));
    QApplication::setApplicationVersion(QStringLiteral(FENCESCOPE_VERSION));

    MainWindow window;
    const QStringList args = app.arguments();
    if (args.size() > 1)
        window.openAtStart(args.at(1));
    window.show();
    return app.exec();
}
