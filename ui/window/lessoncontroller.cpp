#include "window/lessoncontroller.h"

#include "document/comparison.h"
#include "document/document.h"
#include "document/lessoncommands.h"
#include "document/lessonsession.h"
#include "views/lessonpanel.h"
#include "views/lessonstage.h"
#include "views/presentationpanel.h"
#include "views/timelineview.h"
#include "viewstate.h"
#include "window/playback.h"
#include "window/roompoll.h"

#include "lessonfile.h"
#include "lessonpredict.h"

#include <QAction>
#include <QApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>
#include <QTimer>
#include <QUndoStack>

#include <algorithm>

namespace {

// QSettings keys may not hold '/' or '\\': a lesson's key (a path) is remembered by its hash.
QString settingsKey(const QString &progressKey)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(progressKey.toUtf8(), QCryptographicHash::Sha1).toHex());
}

} // namespace

LessonController::LessonController(Parts parts, Hooks hooks, QObject *parent)
    : QObject(parent), m_parts(std::move(parts)), m_hooks(std::move(hooks)),
      m_revealTimer(new QTimer(this)), m_presentationAlive(m_parts.presentation)
{
    connect(m_revealTimer, &QTimer::timeout, this, &LessonController::revealStep);
    connect(m_parts.state, &ViewState::playheadChanged, this, &LessonController::holdAtFreeze);
    connect(m_parts.panel, &LessonPanel::previousScene, this, &LessonController::previousScene);
    connect(m_parts.panel, &LessonPanel::nextScene, this, &LessonController::nextScene);
    connect(m_parts.panel, &LessonPanel::revealRequested, this, &LessonController::reveal);
    connect(m_parts.panel, &LessonPanel::sceneRunRequested, this, &LessonController::showSceneRun);
    connect(m_parts.view, &TimelineView::writeQuestionRequested, this,
            [this](int client, int action, bool inLesson) {
                inLesson ? askInLesson(client, action) : predict(client, action);
            });
    // the lesson editor open (shown, even behind another dock's tab): a write's menu can
    // ask in the lesson
    if (m_parts.editorDock)
        connect(m_parts.editorDock->toggleViewAction(), &QAction::toggled, this,
                [this](bool shown) {
                    m_parts.view->setWriteQuestions(m_session != nullptr, m_session && shown);
                });
    m_parts.presentation->setWalk(this);
    // the poll's box shown, grown or shrunk, or the answer's hands columns come or gone: the
    // stage may need another height (queued: the box changes in the middle of a stage's
    // change, which ends first)
    connect(
        m_parts.stage, &LessonStage::shapeChanged, this,
        [this] {
            if (m_presentationAlive && presenting())
                m_parts.presentation->fit();
        },
        Qt::QueuedConnection);
    m_parts.stage->hide();
}

LessonController::~LessonController()
{
    // the window deletes its controllers in the order it made them: presentation's may be
    // gone already
    if (m_presentationAlive)
        m_presentationAlive->setWalk(nullptr);
}

bool LessonController::presenting() const
{
    return m_parts.presentation->isPresenting();
}

bool LessonController::open(const QString &path)
{
    const Core::LessonLoadResult r = Core::LessonFile::load(path);
    if (!r.ok()) {
        m_hooks.reportError(tr("Cannot open lesson"),
                            tr("%1\n\n%2").arg(QDir::toNativeSeparators(path), r.error));
        return false;
    }
    return openLoaded(*r.lesson, QFileInfo(path).absoluteFilePath(), {});
}

bool LessonController::openBuiltin(const QString &name)
{
    const Core::LessonLoadResult r = Core::LessonFile::load(Core::LessonFile::builtinPath(name));
    if (!r.ok()) {
        m_hooks.reportError(tr("Cannot open lesson"), r.error);
        return false;
    }
    return openLoaded(*r.lesson, {}, name);
}

void LessonController::openNew(const Core::Lesson &lesson)
{
    openLoaded(lesson, {}, {});
}

bool LessonController::openLoaded(const Core::Lesson &lesson, const QString &path,
                                  const QString &builtin)
{
    if (m_hooks.maybeSaveScenario && !m_hooks.maybeSaveScenario())
        return false;
    if (!close())
        return false;
    setSession(new LessonSession(m_parts.doc, lesson, path, builtin, this));
    // where it was left; the first scene of a lesson never opened
    m_session->restoreProgress(loadProgress());
    if (!presenting() && m_parts.dock) {
        m_parts.dock->show();
        m_parts.dock->raise();
    }
    return true;
}

void LessonController::setSession(LessonSession *session)
{
    m_session = session;
    m_parts.panel->setSession(session);
    m_parts.stage->setSession(session);
    m_parts.view->setWriteQuestions(session != nullptr, session && m_parts.editorDock &&
                                                            !m_parts.editorDock->isHidden());
    if (session) {
        connect(session, &LessonSession::sceneChanged, this, &LessonController::load);
        connect(session, &LessonSession::sceneMoved, this, &LessonController::saveProgress);
        connect(session, &LessonSession::answerChanged, this, &LessonController::saveProgress);
        connect(session, &LessonSession::lessonChanged, this, [this] {
            // the editor changed the scene shown: its view and its question's freeze apply now
            if (m_loading || !m_session || m_session->isDetached())
                return;
            const Core::LessonScene &scene = m_session->currentScene();
            if (scene.view == m_appliedView && scene.question == m_appliedQuestion)
                return;
            applyView();
            if (presenting())
                go(m_position, false);
            else
                applyNormal();
        });
        connect(session, &LessonSession::filePathChanged, this, &LessonController::saveProgress);
    } else {
        setStage(Stage::None);
    }
    emit sessionChanged(session);
}

bool LessonController::maybeSave()
{
    if (!m_session || !m_session->isModified())
        return true;
    switch (m_hooks.askUnsaved(m_session->lesson().title)) {
    case QMessageBox::Save:
        return save();
    case QMessageBox::Discard:
        return true;
    default:
        return false;
    }
}

bool LessonController::close()
{
    if (!m_session)
        return true;
    if (!maybeSave())
        return false;
    stopReveal();
    saveProgress();
    setCurtain(false);
    LessonSession *old = m_session;
    setSession(nullptr);
    old->deleteLater();
    m_parts.state->setHideFuture(presenting());
    m_parts.view->setFitRange(std::nullopt);
    m_parts.stage->hide();
    if (presenting()) {
        m_parts.presentationPanel->show();
        m_parts.presentation->fit();
        m_parts.presentation->start();
    } else {
        m_parts.view->fitToWindow();
    }
    if (m_parts.dock)
        m_parts.dock->hide();
    return true;
}

bool LessonController::save()
{
    if (!m_session)
        return false;
    if (m_session->filePath().isEmpty())
        return saveAs();
    return saveTo(m_session->filePath());
}

bool LessonController::saveAs()
{
    if (!m_session)
        return false;
    QString name = m_session->lesson().title.toLower();
    name.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    QString path = m_hooks.askSavePath(name + QLatin1String(Core::LessonFile::kSuffix));
    if (path.isEmpty())
        return false;
    if (!path.endsWith(QLatin1String(Core::LessonFile::kSuffix)))
        path += QLatin1String(Core::LessonFile::kSuffix);
    return saveTo(path);
}

bool LessonController::saveTo(const QString &path)
{
    if (!m_session)
        return false;
    // only a lesson that loads is written: what is saved opens again, from where it is saved
    // (a scene's path is relative to the lesson's folder)
    const QByteArray bytes = Core::LessonFile::serialize(m_session->lesson());
    const Core::LessonLoadResult check =
        Core::LessonFile::parse(bytes, QFileInfo(path).absolutePath());
    if (!check.ok()) {
        m_hooks.reportError(tr("Cannot save lesson"),
                            tr("The lesson would not open again: %1").arg(check.error));
        return false;
    }
    QString error;
    if (!Core::LessonFile::save(m_session->lesson(), path, &error)) {
        m_hooks.reportError(tr("Cannot save lesson"), error);
        return false;
    }
    m_session->setFilePath(QFileInfo(path).absoluteFilePath());
    m_session->markSaved();
    m_hooks.showStatus(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

void LessonController::nextScene()
{
    if (m_session && m_session->scene() + 1 < m_session->sceneCount())
        m_session->setScene(m_session->scene() + 1);
}

void LessonController::previousScene()
{
    if (m_session && m_session->scene() > 0)
        m_session->setScene(m_session->scene() - 1);
}

void LessonController::showScene(int scene)
{
    if (!m_session)
        return;
    if (scene == m_session->scene())
        load(); // shown again as the lesson has it
    else
        m_session->setScene(scene);
}

void LessonController::showSceneRun()
{
    if (m_session)
        load();
}

void LessonController::load()
{
    if (!m_session)
        return;
    stopReveal();
    m_loading = true;
    m_parts.playback->pause();
    // an outcome highlighted would give the answer away; indices of another scenario besides
    m_parts.state->clearSelection();
    m_parts.doc->reset(m_session->sceneScenario(m_session->scene()));
    m_session->setDetached(false);
    applyView();
    m_loading = false;
    if (presenting()) {
        m_parts.presentation->fit();
        const int last = int(positions().size()) - 1;
        go(m_enterAtEnd ? last : 0, false);
        m_enterAtEnd = false;
    } else {
        applyNormal();
    }
    saveProgress();
}

void LessonController::applyView()
{
    const Core::LessonScene &scene = m_session->currentScene();
    const Core::SceneView &v = scene.view;
    m_appliedView = v;
    m_appliedQuestion = scene.question;
    m_parts.state->setCompareSource(v.compare == Core::SceneCompare::Source
                                        ? std::optional<Core::TokenSource>(v.compareSource)
                                        : std::nullopt);
    m_parts.state->setCompare(v.compare != Core::SceneCompare::Off);
    std::optional<std::pair<double, double>> range;
    if (v.from || v.to) {
        const Core::Trace &t = m_parts.doc->trace();
        range = std::make_pair(v.from ? double(*v.from) : TimelineRenderer::fitFrom(t),
                               v.to ? double(*v.to) : TimelineRenderer::fitTo(t));
    }
    m_parts.view->setFitRange(range);
    m_parts.view->fitToWindow();
}

void LessonController::applyNormal()
{
    if (!m_session)
        return;
    ViewState &st = *m_parts.state;
    const Core::LessonQuestion *q = m_session->question();
    st.setPlayheadBefore(false);
    m_parts.panel->setRevealing(false);
    setCurtain(q && !m_session->currentAnswer().revealed);
    if (q && !m_session->currentAnswer().revealed) {
        // the run stops at the freeze tick, and what follows is not shown until the reveal
        st.setHideFuture(true);
        setStage(Stage::Question);
        st.setPlayhead(q->freeze);
    } else if (q) {
        st.setHideFuture(false);
        const Core::ScenePlay &play = m_session->play();
        st.setPlayhead(play.right() >= 0 ? play.reveal() : q->freeze);
        setStage(Stage::Answer);
    } else {
        st.setHideFuture(false);
        const Core::SceneView &v = m_session->currentScene().view;
        if (v.playhead && !m_session->isDetached())
            st.setPlayhead(*v.playhead);
        else
            st.clearPlayhead();
        setStage(Stage::Step);
    }
}

void LessonController::setCurtain(bool on)
{
    if (on) {
        for (QWidget *w : m_parts.curtained)
            if (w->isVisibleTo(m_parts.window)) {
                if (!m_putAway.contains(w))
                    m_putAway << w;
                w->hide();
            }
        return;
    }
    const QList<QWidget *> shown = m_putAway;
    m_putAway.clear();
    for (QWidget *w : shown)
        w->show();
}

void LessonController::holdAtFreeze()
{
    // before the reveal a student cannot play or step past the freeze tick: the answer is
    // what comes next
    if (!m_session || m_loading || presenting() || m_stage != Stage::Question)
        return;
    const Core::LessonQuestion *q = m_session->question();
    ViewState &st = *m_parts.state;
    if (!q || (st.hasPlayhead() && st.playhead() <= q->freeze))
        return;
    m_parts.playback->pause();
    st.setPlayhead(q->freeze);
}

void LessonController::setStage(Stage stage)
{
    if (stage == m_stage)
        return;
    m_stage = stage;
    emit stageChanged();
}

void LessonController::scenarioReplaced()
{
    if (!m_session || m_loading)
        return;
    stopReveal();
    m_session->setDetached(true);
    setCurtain(false);
    m_parts.state->setHideFuture(presenting());
    m_parts.view->setFitRange(std::nullopt);
    setStage(Stage::Step);
}

// --- questions --------------------------------------------------------------------------------

void LessonController::reveal()
{
    if (!m_session || !m_session->question() || m_stage == Stage::Revealing)
        return;
    if (presenting()) {
        const std::vector<Position> list = positions();
        for (std::size_t i = 0; i < list.size(); ++i)
            if (list[i].stage == Stage::Answer)
                go(int(i), true);
        return;
    }
    startReveal();
}

void LessonController::startReveal()
{
    const Core::LessonQuestion *q = m_session->question();
    if (!q)
        return;
    const Core::ScenePlay &play = m_session->play();
    const std::vector<Core::Tick> ticks = storyTicks(*m_parts.doc, *m_parts.state);
    // on to the deciding event; a question that is not sound plays on to the end
    m_revealTarget = play.right() >= 0 ? play.reveal() : (ticks.empty() ? q->freeze : ticks.back());
    m_revealTicks.clear();
    for (const Core::Tick t : ticks)
        if (t > q->freeze && t < m_revealTarget)
            m_revealTicks.push_back(t);
    m_revealTicks.push_back(std::max(m_revealTarget, q->freeze));
    m_parts.state->setPlayheadBefore(false);
    m_parts.state->setPlayhead(q->freeze);
    setStage(Stage::Revealing);
    m_parts.stage->setMode(LessonStage::Mode::Revealing);
    m_parts.panel->setRevealing(true);
    const int interval = std::clamp(kRevealMs / int(m_revealTicks.size()), 120, 400);
    m_revealTimer->start(interval);
}

void LessonController::revealStep()
{
    if (m_revealTicks.empty()) {
        finishReveal();
        return;
    }
    const Core::Tick t = m_revealTicks.front();
    m_revealTicks.erase(m_revealTicks.begin());
    m_parts.state->setPlayhead(t);
    if (m_revealTicks.empty())
        finishReveal();
}

void LessonController::finishReveal()
{
    m_revealTimer->stop();
    m_revealTicks.clear();
    if (!m_session)
        return;
    m_parts.state->setPlayhead(m_revealTarget);
    if (!presenting()) {
        m_parts.state->setHideFuture(false); // the student explores the whole run now
        setCurtain(false);
    }
    setStage(Stage::Answer);
    m_parts.stage->setMode(LessonStage::Mode::Answer);
    m_parts.panel->setRevealing(false);
    m_session->setRevealed(true);
}

void LessonController::stopReveal()
{
    if (!m_revealTimer->isActive() && m_revealTicks.empty())
        return;
    m_revealTimer->stop();
    m_revealTicks.clear();
    m_parts.panel->setRevealing(false);
}

void LessonController::predict(int client, int action)
{
    if (!m_session)
        return;
    m_parts.doc->settle();
    m_session->setOwnQuestion(Core::writeQuestion(m_parts.doc->scenario(), m_parts.doc->trace(),
                                                  std::uint32_t(client), std::uint32_t(action)));
    if (m_parts.dock) {
        m_parts.dock->show();
        m_parts.dock->raise();
    }
    m_parts.state->clearSelection(); // its outcome, highlighted, would be the answer
    applyNormal();
}

void LessonController::askInLesson(int client, int action)
{
    if (!m_session)
        return;
    m_parts.doc->settle();
    const Core::Scenario shown = m_parts.doc->scenario();
    const Core::LessonQuestion q = Core::writeQuestion(
        shown, m_parts.doc->trace(), std::uint32_t(client), std::uint32_t(action));
    const int scene = m_session->scene();
    QUndoStack *undo = m_session->undoStack();
    undo->beginMacro(
        tr("Ask what happens to %1").arg(Core::writeRefText(q.options.front().claim.write)));
    if (!m_session->showsSceneAsWritten()) {
        // the question is about the run shown: the scene keeps that run, with its own switch
        undo->push(
            LessonCommands::setScenario(m_session, scene, Core::SceneSource::Inline, {}, shown));
        Core::SceneView view = m_session->currentScene().view;
        view.fencing.reset();
        undo->push(LessonCommands::setView(m_session, scene, view, tr("Scene's view")));
    }
    undo->push(LessonCommands::setQuestion(m_session, scene, q, tr("Question")));
    undo->endMacro();
    m_session->setDetached(false);
    m_session->setRevealed(false);
    m_parts.state->clearSelection();
    applyNormal();
}

// --- progress ---------------------------------------------------------------------------------

void LessonController::saveProgress()
{
    if (!m_session || m_session->progressKey().isEmpty())
        return;
    QSettings settings;
    settings.beginGroup(QLatin1String(kProgressGroup));
    settings.setValue(settingsKey(m_session->progressKey()), m_session->progress());
}

QVariantMap LessonController::loadProgress() const
{
    if (!m_session || m_session->progressKey().isEmpty())
        return {};
    QSettings settings;
    settings.beginGroup(QLatin1String(kProgressGroup));
    return settings.value(settingsKey(m_session->progressKey())).toMap();
}
