#pragma once

// The real MainWindow as a UI test opens it: settings of the test's own (cleared, so nothing
// the user or another test chose leaks in), the dialogs scripted (scripteddialogs.h), the window
// shown and waited for; closed without the unsaved-changes question.
//
//   WindowFixture m_window;
//   void initTestCase() { WindowFixture::useOwnSettings("tst_foo"); }
//   void init() { QVERIFY(m_window.open()); }
//   void cleanup() { m_window.close(); }
//
// It holds the window as a pointer does (m_window->, *m_window, m_window.get()).

#include "document/document.h"
#include "document/lessonsession.h"
#include "scripteddialogs.h"
#include "window/lessoncontroller.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QRegularExpression>
#include <QSettings>
#include <QSize>
#include <QStandardPaths>
#include <QTest>

#include <memory>

class WindowFixture
{
public:
    // What differs between the tests: set as WindowFixture m_window{Options().sized(1280, 800)}
    struct Options
    {
        QSize size;                 // empty: the window's own first size
        bool active = true;         // wait until it has the focus, not only until it is shown
        bool clearSettings = false; // before each window: no progress or choice from the last
        // a key Qt cannot map to one action does nothing for the user: such a warning fails
        bool strictShortcuts = false;

        Options &sized(int width, int height)
        {
            size = QSize(width, height);
            return *this;
        }
        Options &shownOnly()
        {
            active = false;
            return *this;
        }
        Options &clearingSettings()
        {
            clearSettings = true;
            return *this;
        }
        Options &failingOnAmbiguousShortcuts()
        {
            strictShortcuts = true;
            return *this;
        }
    };

    // In initTestCase: the settings (recent files, theme, progress) go to a test file of the
    // program's own, emptied, never the user's.
    static void useOwnSettings(const char *program)
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("FenceScopeTest"));
        QApplication::setApplicationName(QString::fromLatin1(program));
        QSettings().clear();
    }

    WindowFixture() = default;
    explicit WindowFixture(const Options &options) : m_options(options) {}

    // In init: a new window, its dialogs scripted, shown; false when it never got shown (or
    // the focus, when asked).
    [[nodiscard]] bool open()
    {
        if (m_options.clearSettings)
            QSettings().clear();
        if (m_options.strictShortcuts)
            QTest::failOnWarning(QRegularExpression(QStringLiteral("Ambiguous shortcut")));
        make();
        if (!m_options.size.isEmpty())
            m_window->resize(m_options.size);
        m_window->show();
        if (!m_options.active)
            return QTest::qWaitForWindowExposed(m_window.get());
        m_window->activateWindow();
        return QTest::qWaitForWindowActive(m_window.get());
    }

    // A new run of the program: this window closed, a new one made with scripted dialogs (not
    // shown), reading what the last one left in the settings.
    void reopen()
    {
        close();
        make();
    }

    // In cleanup: the scenario and any lesson marked saved (no question on close), then closed.
    void close()
    {
        if (!m_window)
            return;
        m_window->document()->markSaved();
        if (LessonSession *session = m_window->lessons()->session())
            session->markSaved();
        m_window.reset();
    }

    MainWindow *get() const { return m_window.get(); }
    MainWindow *operator->() const { return m_window.get(); }
    MainWindow &operator*() const { return *m_window; }
    explicit operator bool() const { return bool(m_window); }

private:
    void make()
    {
        m_window = std::make_unique<MainWindow>();
        scriptDialogs(*m_window);
    }

    Options m_options;
    std::unique_ptr<MainWindow> m_window;
};
