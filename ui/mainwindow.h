#pragma once

#include "scenario.h"

#include <QMainWindow>

class QLabel;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);

    // Opens FILE given on the command line; a broken file shows its error and the default
    // scenario stays open.
    void openAtStart(const QString &path);
    const Core::Scenario &scenario() const { return m_scenario; }

private:
    void setScenario(const Core::Scenario &scenario);

    Core::Scenario m_scenario;
    QLabel *m_title = nullptr;
};
