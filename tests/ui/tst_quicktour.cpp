// Help > Quick tour, offscreen: its steps and their targets, the keys (through the window),
// the buttons, the lit hole in the overlay, and that finishing or dismissing it is remembered.

#include "document/document.h"
#include "scripteddialogs.h"
#include "window/mainwindow.h"
#include "window/quicktour.h"

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>

#include <memory>

class TestQuickTour : public QObject
{
    Q_OBJECT

private:
    // A window with two targets (one a widget by name, one a rectangle) and a hidden one.
    struct Fixture
    {
        QWidget host;
        QLabel *first = new QLabel(QStringLiteral("first"), &host);
        QLabel *hidden = new QLabel(QStringLiteral("hidden"), &host);
        QAction *right = new QAction(&host); // a window shortcut the tour must not let through
        QPointer<QuickTour> tour;
        Fixture()
        {
            host.setAutoFillBackground(true);
            QPalette pal = host.palette();
            pal.setColor(QPalette::Window, Qt::white);
            host.setPalette(pal);
            host.resize(800, 600);
            first->setObjectName(QStringLiteral("first"));
            first->setGeometry(20, 20, 200, 40);
            hidden->setObjectName(QStringLiteral("hidden"));
            hidden->hide();
            right->setShortcut(QKeySequence(Qt::Key_Right));
            right->setShortcutContext(Qt::WindowShortcut);
            host.addAction(right);
            std::vector<QuickTour::Step> steps;
            steps.push_back(
                {QStringLiteral("first"), {}, QStringLiteral("One"), QStringLiteral("the label")});
            steps.push_back({{},
                             [](QWidget *) { return QRect(300, 100, 50, 50); },
                             QStringLiteral("Two"),
                             QStringLiteral("a rectangle")});
            steps.push_back({QStringLiteral("hidden"),
                             {},
                             QStringLiteral("Three"),
                             QStringLiteral("nothing to show")});
            steps.push_back({{}, {}, QStringLiteral("Four"), QStringLiteral("the end")});
            tour = new QuickTour(&host, std::move(steps));
            host.show();
            host.activateWindow();
            if (!QTest::qWaitForWindowActive(&host))
                qFatal("window not active");
            tour->start();
        }
        void key(Qt::Key k, Qt::KeyboardModifiers m = Qt::NoModifier)
        {
            QTest::keyClick(host.windowHandle(), k, m);
        }
        QPushButton *button(const char *name) const
        {
            return tour->card()->findChild<QPushButton *>(QLatin1String(name));
        }
    };

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("FenceScopeTest"));
        QApplication::setApplicationName(QStringLiteral("tst_quicktour"));
    }
    void init() { QSettings().clear(); }

    void startsOnTheFirstStepOverTheWholeWindow()
    {
        QVERIFY(QuickTour::shouldShowOnFirstRun());
        Fixture f;
        QVERIFY(f.tour->isVisible());
        QCOMPARE(f.tour->geometry(), f.host.rect());
        QCOMPARE(f.tour->stepCount(), 4);
        QCOMPARE(f.tour->currentStep(), 0);
        QCOMPARE(f.tour->targetRect(), QRect(20, 20, 200, 40));
        // the card shows the step and keeps clear of the target
        QVERIFY(f.tour->card()->isVisible());
        QVERIFY(!f.tour->card()->geometry().intersects(f.tour->targetRect()));
        QVERIFY(f.host.rect().contains(f.tour->card()->geometry()));
        const QList<QLabel *> labels = f.tour->card()->findChildren<QLabel *>();
        QStringList texts;
        for (const QLabel *l : labels)
            texts << l->text();
        QVERIFY2(texts.contains(QStringLiteral("One")), qPrintable(texts.join(u'|')));
        QVERIFY(texts.contains(QStringLiteral("the label")));
        QVERIFY(texts.contains(QStringLiteral("1 of 4")));
        QVERIFY(!f.button("tourBack")->isEnabled());
        QVERIFY(f.tour->accessibleDescription().contains(QStringLiteral("the label")));
    }

    void keysStepThroughTheWindow()
    {
        Fixture f;
        QSignalSpy changed(f.tour.data(), &QuickTour::stepChanged);
        f.key(Qt::Key_Right);
        QCOMPARE(f.tour->currentStep(), 1);
        QCOMPARE(f.tour->targetRect(), QRect(300, 100, 50, 50));
        f.key(Qt::Key_Return); // Next has the focus
        QCOMPARE(f.tour->currentStep(), 2);
        // a hidden target: no hole, the card in the middle
        QCOMPARE(f.tour->targetRect(), QRect());
        QVERIFY(f.tour->card()->geometry().contains(f.host.rect().center()));
        f.key(Qt::Key_Left);
        QCOMPARE(f.tour->currentStep(), 1);
        QCOMPARE(changed.count(), 3);
        QCOMPARE(changed.last().at(0).toInt(), 1);
        f.key(Qt::Key_Left);
        f.key(Qt::Key_Left); // nothing before the first
        QCOMPARE(f.tour->currentStep(), 0);
        QCOMPARE(changed.count(), 4);
    }

    void windowShortcutsWaitUnderTheTour()
    {
        Fixture f;
        QSignalSpy fired(f.right, &QAction::triggered);
        f.key(Qt::Key_Right);
        QCOMPARE(f.tour->currentStep(), 1);
        QCOMPARE(fired.count(), 0);
        f.key(Qt::Key_Escape);
        QVERIFY(f.tour.isNull() || !f.tour->isVisible());
        f.key(Qt::Key_Right); // the tour is gone: the window has its key back
        QCOMPARE(fired.count(), 1);
    }

    void buttonsStepAndTabStaysOnTheCard()
    {
        Fixture f;
        QTest::mouseClick(f.button("tourNext"), Qt::LeftButton);
        QCOMPARE(f.tour->currentStep(), 1);
        QVERIFY(f.button("tourBack")->isEnabled());
        QTest::mouseClick(f.button("tourBack"), Qt::LeftButton);
        QCOMPARE(f.tour->currentStep(), 0);

        f.key(Qt::Key_Right);
        QVERIFY(f.button("tourNext")->hasFocus());
        f.key(Qt::Key_Tab);
        QVERIFY(f.button("tourDone")->hasFocus());
        f.key(Qt::Key_Tab); // round to the first button, never to the window under the overlay
        QVERIFY(f.button("tourBack")->hasFocus());
        f.key(Qt::Key_Return); // Return presses the focused button: Back
        QCOMPARE(f.tour->currentStep(), 0);
        f.key(Qt::Key_Tab, Qt::ShiftModifier);
        QVERIFY(f.button("tourDone")->hasFocus());
    }

    void lastStepOffersDoneAndRemembersIt()
    {
        Fixture f;
        QSignalSpy finished(f.tour.data(), &QuickTour::finished);
        for (int i = 0; i < 3; ++i)
            f.key(Qt::Key_Right);
        QCOMPARE(f.tour->currentStep(), 3);
        QVERIFY(!f.button("tourNext")->isVisible());
        QVERIFY(f.button("tourDone")->isVisible());
        QVERIFY(f.button("tourDone")->hasFocus());
        QVERIFY(QuickTour::shouldShowOnFirstRun());
        f.key(Qt::Key_Return);
        QCOMPARE(finished.count(), 1);
        QTRY_VERIFY(f.tour.isNull()); // closed and deleted
        QCOMPARE(QSettings().value(QStringLiteral("tour/done")).toBool(), true);
        QVERIFY(!QuickTour::shouldShowOnFirstRun());
    }

    void escapeDismissesAndIsRemembered()
    {
        {
            Fixture f;
            f.key(Qt::Key_Right);
            f.key(Qt::Key_Escape);
            QTRY_VERIFY(f.tour.isNull());
        }
        QVERIFY(!QuickTour::shouldShowOnFirstRun());
        // across a restart: a fresh QSettings reads what was stored
        QSettings().sync();
        QVERIFY(QSettings().value(QuickTour::settingsKey()).toBool());
    }

    void followsTheWindowsSize()
    {
        Fixture f;
        f.host.resize(640, 480);
        QTRY_COMPARE(f.tour->geometry(), QRect(0, 0, 640, 480));
        QVERIFY(f.host.rect().contains(f.tour->card()->geometry()));
    }

    void dimsAllButTheTarget()
    {
        Fixture f;
        const QImage img = f.host.grab().toImage();
        // inside the hole: the window as it is (white); far from it: darkened
        const QColor inside = img.pixelColor(QPoint(120, 40) * img.devicePixelRatio());
        const QColor outside = img.pixelColor(QPoint(780, 20) * img.devicePixelRatio());
        QCOMPARE(inside, QColor(Qt::white));
        QVERIFY2(outside.lightness() < 160, qPrintable(outside.name()));
    }

    void defaultTourFindsItsTargetsInTheMainWindow()
    {
        MainWindow w;
        scriptDialogs(w);
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const std::vector<QuickTour::Step> steps = QuickTour::defaultSteps();
        QVERIFY(steps.size() >= 8);
        auto *tour = new QuickTour(&w, steps);
        tour->start();
        int lit = 0;
        QStringList texts;
        for (int i = 0; i < tour->stepCount(); ++i) {
            QCOMPARE(tour->currentStep(), i);
            const QuickTour::Step &s = tour->step(i);
            QVERIFY(!s.title.isEmpty() && !s.text.isEmpty());
            texts << s.title + u' ' + s.text;
            const bool hasTarget = !s.target.isEmpty() || s.rect;
            const QRect r = tour->targetRect();
            if (hasTarget) {
                // every named widget and every rectangle is really there, inside the window
                QVERIFY2(!r.isEmpty(), qPrintable(s.title));
                QVERIFY2(w.rect().contains(r), qPrintable(s.title));
                ++lit;
            }
            tour->next();
        }
        QVERIFY(lit >= 6);
        const QString all = texts.join(u'\n');
        QVERIFY(all.contains(QStringLiteral("drag A's pause shorter"), Qt::CaseInsensitive));
        QVERIFY(all.contains(QStringLiteral("Press F to toggle fencing")));
        QVERIFY(all.contains(QStringLiteral("Press C to compare")));
        w.document()->markSaved();
    }

    // Each card shows its whole title and text, at a projector's sizes too: the first card
    // was clipped at its top and bottom (a wrapped label given fewer lines than it needs).
    void everyCardShowsAllItsText_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1024x768") << QSize(1024, 768);
        QTest::newRow("1280x800") << QSize(1280, 800);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    void everyCardShowsAllItsText()
    {
        QFETCH(QSize, size);
        MainWindow w;
        scriptDialogs(w);
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *tour = new QuickTour(&w, QuickTour::defaultSteps());
        tour->start();
        for (int i = 0; i < tour->stepCount(); ++i) {
            QCoreApplication::processEvents();
            QWidget *card = tour->card();
            QVERIFY(w.rect().contains(card->geometry()));
            for (QLabel *l : card->findChildren<QLabel *>()) {
                if (l->text().isEmpty())
                    continue;
                const QString what = QStringLiteral("card %1, \"%2\": %3 px of %4 needed")
                                         .arg(i + 1)
                                         .arg(l->text().left(30))
                                         .arg(l->height())
                                         .arg(l->wordWrap() ? l->heightForWidth(l->width())
                                                            : l->sizeHint().height());
                QVERIFY2(l->height() >= (l->wordWrap() ? l->heightForWidth(l->width())
                                                       : l->minimumSizeHint().height()),
                         qPrintable(what));
                QVERIFY2(card->rect().contains(QRect(l->mapTo(card, QPoint()), l->size())),
                         qPrintable(what));
            }
            tour->next();
        }
        w.document()->markSaved();
    }

    void defaultTourWithoutItsTargetsShowsCardsOnly()
    {
        QWidget host;
        host.resize(600, 400);
        host.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host));
        QPointer<QuickTour> tour = new QuickTour(&host, QuickTour::defaultSteps());
        tour->start();
        for (int i = 0; i < tour->stepCount(); ++i) {
            QCOMPARE(tour->targetRect(), QRect());
            tour->next();
        }
        QTRY_VERIFY(tour.isNull()); // next on the last step finished it
    }
};

QTEST_MAIN(TestQuickTour)
#include "tst_quicktour.moc"
