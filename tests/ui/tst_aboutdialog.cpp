// Help > About: name, the version --version prints, what FenceScope is, and the licence as the
// LICENSE file has it. Keys go through the dialog's window.

#include "window/aboutdialog.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

class TestAboutDialog : public QObject
{
    Q_OBJECT

private:
    static QString labelText(const QDialog &d, const char *name)
    {
        const auto *l = d.findChild<QLabel *>(QLatin1String(name));
        return l ? l->text() : QStringLiteral("<no label %1>").arg(QLatin1String(name));
    }

private slots:
    void initTestCase()
    {
        // as main.cpp does: the build's version is the application's
        QApplication::setApplicationVersion(QStringLiteral(FENCESCOPE_VERSION));
    }

    void showsNameVersionAndWhatItIs()
    {
        AboutDialog d;
        QCOMPARE(d.windowTitle(), QStringLiteral("About FenceScope"));
        QCOMPARE(labelText(d, "aboutName"), QStringLiteral("FenceScope"));
        QCOMPARE(d.version(), QStringLiteral(FENCESCOPE_VERSION));
        QCOMPARE(labelText(d, "aboutVersion"),
                 QStringLiteral("Version ") + QStringLiteral(FENCESCOPE_VERSION));
        // the version of the top-level CMakeLists.txt, project(FenceScope VERSION x.y.z)
        QFile cmake(QStringLiteral(FENCESCOPE_SOURCE_DIR "/CMakeLists.txt"));
        QVERIFY(cmake.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(cmake.readAll())
                    .contains(QStringLiteral("project(FenceScope VERSION %1 ")
                                  .arg(QStringLiteral(FENCESCOPE_VERSION))));
        const QString what = labelText(d, "aboutDescription");
        QVERIFY(what.contains(QStringLiteral("fencing tokens")));
        QVERIFY(what.contains(QStringLiteral("stale token")));
        QVERIFY(labelText(d, "aboutLicense").contains(QStringLiteral("MIT License")));
    }

    void anExplicitVersionWins()
    {
        AboutDialog d(nullptr, QStringLiteral("9.8.7"));
        QCOMPARE(labelText(d, "aboutVersion"), QStringLiteral("Version 9.8.7"));
    }

    void licenceIsTheLicenseFile()
    {
        QFile file(QStringLiteral(FENCESCOPE_SOURCE_DIR "/LICENSE"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString license = QString::fromUtf8(file.readAll()).trimmed();
        QCOMPARE(AboutDialog::licenseText().trimmed(), license);
        AboutDialog d;
        const auto *text = d.findChild<QPlainTextEdit *>(QStringLiteral("aboutLicenseText"));
        QVERIFY(text);
        QVERIFY(text->isReadOnly());
        QCOMPARE(text->toPlainText().trimmed(), license);
        QVERIFY(!text->accessibleName().isEmpty());
    }

    void escapeAndCloseClose()
    {
        {
            AboutDialog d;
            d.show();
            QVERIFY(QTest::qWaitForWindowActive(&d));
            QSignalSpy rejected(&d, &QDialog::rejected);
            QTest::keyClick(d.windowHandle(), Qt::Key_Escape);
            QCOMPARE(rejected.count(), 1);
            QVERIFY(!d.isVisible());
        }
        AboutDialog d;
        d.show();
        QVERIFY(QTest::qWaitForWindowActive(&d));
        auto *box = d.findChild<QDialogButtonBox *>();
        QVERIFY(box);
        QPushButton *close = box->button(QDialogButtonBox::Close);
        QVERIFY(close);
        QVERIFY(close->hasFocus()); // Return or Space closes at once
        QTest::keyClick(d.windowHandle(), Qt::Key_Return);
        QVERIFY(!d.isVisible());
        QCOMPARE(d.result(), int(QDialog::Rejected));
    }
};

QTEST_MAIN(TestAboutDialog)
#include "tst_aboutdialog.moc"
