#include "mainwindow.h"

#include "scenariofile.h"

#include <QLabel>
#include <QMessageBox>

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    m_title = new QLabel(this);
    m_title->setAlignment(Qt::AlignCenter);
    setCentralWidget(m_title);
    setScenario(Core::ScenarioFile::defaultScenario());
    resize(1280, 800);
}

void MainWindow::openAtStart(const QString &path)
{
    Core::LoadResult r = Core::ScenarioFile::load(path);
    if (!r.ok()) {
        QMessageBox::warning(this, tr("Cannot open scenario"),
                             tr("%1\n\n%2\n\nThe default scenario is shown instead.")
                                 .arg(path, r.error));
        return;
    }
    setScenario(*r.scenario);
}

void MainWindow::setScenario(const Core::Scenario &scenario)
{
    m_scenario = scenario;
    m_title->setText(m_scenario.title);
    setWindowTitle(tr("%1 - FenceScope").arg(m_scenario.title));
}
