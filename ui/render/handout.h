#pragma once

// A lesson's prediction sheet (`fencescope-cli lesson handout`): an A4 PDF with a cover (title,
// audience, objectives), then each question on its own page, with its scene's timeline frozen
// at the freeze tick as presentation mode shows it (the run stopped there, the future hidden), the
// prompt, the options A-E with a box each and room to write a prediction; then an answer key, each
// question's picture after the reveal (export's picture, playhead at the deciding event), the
// option that holds, the reveal in the system's words, the feedback of every wrong option and
// the lesson's sources. QtGui only, no widgets, as the exporter; the pictures are drawn by the
// exporter's and the window's TimelineRenderer.

#include "exporter.h"
#include "lesson.h"
#include "lessonplay.h"

#include <QByteArray>
#include <QImage>
#include <QString>

struct HandoutOptions
{
    bool answerKey = true;
};

namespace Handout {

// The PDF's bytes. `plays` are the lesson's scenes run (Core::playLesson); every question must
// be sound (Core::lessonProblems empty): the answer key needs the one right option.
QByteArray render(const Core::Lesson &lesson, const std::vector<Core::ScenePlay> &plays,
                  const HandoutOptions &options = {});

// A question's picture as the sheet draws it, and as presentation mode shows the question: the
// scene's timeline with the run stopped at the end of the freeze tick
// (Core::runBefore) and the future hidden (TimelineRenderer::Options::hideFuture).
// `scene` must have a question; `play` is its run (Core::playScene). At `scale` times the
// sheet's picture width.
QImage questionPicture(const Core::LessonScene &scene, const Core::ScenePlay &play,
                       double scale = 1);
// The same picture painted at the painter's origin, and the answer key's picture after the
// reveal (export's page, its legend, the playhead at the deciding event).
void paintQuestionPicture(QPainter *p, const Core::LessonScene &scene, const Core::ScenePlay &play,
                          double scale = 1);
void paintAnswerPicture(QPainter *p, const Core::LessonScene &scene, const Core::ScenePlay &play,
                        double scale = 1);
// The export options each picture is laid out with at scale 1 (Exporter::timelineRect and
// Exporter::timelineAxis of them tell where its timeline and its ticks are).
ExportOptions questionPictureOptions(const Core::LessonScene &scene, const Core::ScenePlay &play);
ExportOptions answerPictureOptions(const Core::LessonScene &scene, const Core::ScenePlay &play);

// Writes the handout to `path` (a .pdf) atomically. "" on success, else a one-line message; on
// failure no file (and no partial file) is left at `path`.
QString write(const QString &path, const Core::Lesson &lesson, const HandoutOptions &options = {});

} // namespace Handout
