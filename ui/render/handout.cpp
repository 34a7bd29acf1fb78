#include "handout.h"

#include "exporter.h"
#include "timelinerenderer.h"

#include "runstate.h"
#include "savefile.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>

#include <algorithm>
#include <cmath>

namespace Handout {
namespace {

// A4 at 96 painter units an inch: one unit is one logical pixel, as in the exporter's PDF.
constexpr double kResolution = 96;
constexpr double kMargin = 56; // 15 mm
// The pictures are laid out at this width (the window's text sizes) and scaled to the page.
constexpr double kPictureWidth = 860;

QFont font(double px, bool bold = false)
{
    QFont f;
    f.setFamilies(Theme::fontFamilies());
    f.setStyleHint(QFont::SansSerif);
    f.setPixelSize(int(px));
    f.setBold(bold);
    return f;
}

// Text drawn at the top of `area`: Markdown (narration, prompts, feedback: **bold**, *italics*,
// `code`, read by Qt's Markdown reader without HTML) or plain. Returns the height it takes;
// with `p` null it only measures.
double text(QPainter *p, const QRectF &area, const QString &content, const QFont &f,
            bool markdown = true, const QColor &colour = Qt::black)
{
    if (content.isEmpty())
        return 0;
    QTextDocument doc;
    doc.setDefaultFont(f);
    doc.setDocumentMargin(0);
    if (markdown)
        doc.setMarkdown(content, QTextDocument::MarkdownNoHTML);
    else
        doc.setPlainText(content);
    doc.setTextWidth(area.width());
    if (p) {
        p->save();
        p->translate(area.topLeft());
        QAbstractTextDocumentLayout::PaintContext context;
        context.palette.setColor(QPalette::Text, colour);
        doc.documentLayout()->draw(p, context);
        p->restore();
    }
    return doc.size().height();
}

// `plain` as Markdown that reads as it is: the characters Markdown gives a meaning escaped
// (a claim quotes values, and a value may hold a star).
QString literal(const QString &plain)
{
    QString out;
    for (const QChar c : plain) {
        if (QStringLiteral("\\`*_[]<>#!|~").contains(c))
            out += QLatin1Char('\\');
        out += c;
    }
    return out;
}

// What a scene's picture shows: the scene's run, its view's range, on the print theme.
ExportOptions pictureOptions(const Core::LessonScene &scene, const Core::ScenePlay &play)
{
    ExportOptions o;
    o.width = kPictureWidth;
    o.theme = Theme::print();
    o.fencing = play.fencing;
    if (scene.view.from)
        o.fromTick = double(*scene.view.from);
    if (scene.view.to)
        o.toTick = double(*scene.view.to);
    o.showTitle = false;
    o.showCaption = false;
    return o;
}

// The timeline as presentation mode shows a question (LessonController, TimelineView): the run
// stopped before the tick after the freeze (Core::runBefore, as Document::traceBefore cuts it),
// painted with the future hidden (TimelineRenderer::Options::hideFuture) and the playhead at the
// freeze tick. On the axis of the whole run and in the place the answer key's picture has it
// (export's margins around it). Returns its height.
double frozenPicture(QPainter *p, QPointF at, double scale, const Core::LessonScene &scene,
                     const Core::ScenePlay &play)
{
    const ExportOptions o = questionPictureOptions(scene, play);
    const ExportRuns whole{play.trace};
    const QRectF rect = Exporter::timelineRect(scene.scenario, whole, o);
    const double height = (rect.bottom() + rect.top()) * scale; // a margin above and below
    if (!p)
        return height;
    const TimeAxis axis = Exporter::timelineAxis(scene.scenario, whole, o);
    TimelineRenderer::Options ro = Exporter::timelineOptions(o);
    ro.hideFuture = true;
    const Core::Trace frozen =
        Core::runBefore(scene.scenario, play.trace, scene.question->freeze + 1);
    p->save();
    p->translate(at);
    p->scale(scale, scale);
    p->translate(rect.topLeft());
    TimelineRenderer().paint(p, QRectF(QPointF(0, 0), rect.size()), scene.scenario, frozen, nullptr,
                             axis, ro);
    p->restore();
    return height;
}

// The picture after the reveal: export's picture with the playhead at the deciding event, and
// its legend. Returns its height.
double revealPicture(QPainter *p, QPointF at, double scale, const Core::LessonScene &scene,
                     const Core::ScenePlay &play)
{
    const ExportOptions o = answerPictureOptions(scene, play);
    const ExportRuns runs{play.trace};
    const QSizeF size = Exporter::pageSize(scene.scenario, runs, o);
    if (p) {
        p->save();
        p->translate(at);
        p->scale(scale, scale);
        Exporter::paint(p, scene.scenario, runs, o);
        p->restore();
    }
    return size.height() * scale;
}

class Writer
{
public:
    Writer(QPdfWriter &pdf, const Core::Lesson &lesson, const std::vector<Core::ScenePlay> &plays)
        : m_pdf(pdf), m_lesson(lesson), m_plays(plays), m_painter(&pdf)
    {
        const QRectF page = pdf.pageLayout().fullRectPixels(int(kResolution));
        m_content = page.adjusted(kMargin, kMargin, -kMargin, -kMargin);
        m_painter.setRenderHint(QPainter::Antialiasing);
        m_painter.setRenderHint(QPainter::TextAntialiasing);
        for (const Core::LessonScene &scene : lesson.scenes)
            m_questions += scene.question ? 1 : 0;
    }

    void cover()
    {
        double y = m_content.top();
        y += write(y, QStringLiteral("FenceScope lesson"), font(13), false, QColor(0x4d4d4d)) + 6;
        y += write(y, m_lesson.title, font(30, true), false) + 14;
        if (!m_lesson.audience.isEmpty())
            y += write(y, QStringLiteral("**For:** ") + m_lesson.audience, font(14)) + 16;
        if (!m_lesson.objectives.isEmpty()) {
            y += write(y, QStringLiteral("You will learn to"), font(17, true), false) + 6;
            QString list;
            for (const QString &o : m_lesson.objectives)
                list += QStringLiteral("- ") + o + QLatin1Char('\n');
            y += write(y, list, font(14)) + 16;
        }
        if (m_questions == 0) {
            write(y, QStringLiteral("This lesson asks no questions."), font(14));
            return;
        }
        y += write(y, QStringLiteral("How to use this sheet"), font(17, true), false) + 6;
        y += write(
            y,
            QStringLiteral("%1 shows a run of the simulator stopped at the red line: everything "
                           "after it is still to come. Before anyone shows you the rest, tick the "
                           "one option you think holds and write down why. Every option is a claim "
                           "the simulator checks on that run, and exactly one of them holds.%2")
                .arg(m_questions == 1 ? QStringLiteral("The question")
                                      : QStringLiteral("Each of the %1 questions").arg(m_questions))
                .arg(m_key ? QStringLiteral(" The answer key at the end shows the run "
                                            "played on to what settles it.")
                           : QString()),
            font(14));
    }

    void questionPages()
    {
        int n = 0;
        for (std::size_t i = 0; i < m_lesson.scenes.size(); ++i) {
            const Core::LessonScene &scene = m_lesson.scenes[i];
            if (!scene.question)
                continue;
            ++n;
            newPage();
            const Core::LessonQuestion &q = *scene.question;
            const QString heading =
                QStringLiteral("Question %1 of %2: %3")
                    .arg(n)
                    .arg(m_questions)
                    .arg(scene.title.isEmpty() ? scene.scenario.title : scene.title);
            // measured first: the picture gives up height for at least four answer lines
            double fixed = measure(heading, font(20, true), false) + 10 +
                           measure(scene.narration, font(13)) + 12 + 14 +
                           measure(q.prompt, font(16, true)) + 10;
            for (std::size_t o = 0; o < q.options.size(); ++o)
                fixed += optionHeight(q, o) + 6;
            fixed += 16 + measure(QStringLiteral("x"), font(13), false) + 4 * kLine;
            const double scale = pictureScale(frozenPicture(nullptr, {}, 1, scene, m_plays[i]),
                                              m_content.height() - fixed);

            double y = m_content.top();
            y += write(y, heading, font(20, true), false) + 10;
            y += write(y, scene.narration, font(13)) + 12;
            y += frozenPicture(&m_painter, QPointF(m_content.left(), y), scale, scene, m_plays[i]) +
                 14;
            y += write(y, q.prompt, font(16, true)) + 10;
            for (std::size_t o = 0; o < q.options.size(); ++o) {
                const double h = optionHeight(q, o);
                m_painter.setPen(QPen(Qt::black, 1.2));
                m_painter.setBrush(Qt::NoBrush);
                m_painter.drawRect(QRectF(m_content.left() + 2, y + 2, 13, 13));
                text(&m_painter, QRectF(m_content.left() + 26, y, m_content.width() - 26, h),
                     Core::optionLine(q, o), font(14), false);
                y += h + 6;
            }
            y += 16;
            y += write(y, QStringLiteral("My prediction, and why:"), font(13), false,
                       QColor(0x4d4d4d));
            m_painter.setPen(QPen(QColor(0xb0b0b0), 0.8));
            for (double line = y + kLine; line <= m_content.bottom(); line += kLine)
                m_painter.drawLine(QPointF(m_content.left(), line),
                                   QPointF(m_content.right(), line));
        }
    }

    void answerKey()
    {
        int n = 0;
        for (std::size_t i = 0; i < m_lesson.scenes.size(); ++i) {
            const Core::LessonScene &scene = m_lesson.scenes[i];
            if (!scene.question)
                continue;
            ++n;
            newPage();
            const Core::LessonQuestion &q = *scene.question;
            const Core::ScenePlay &play = m_plays[i];
            const int right = play.right();
            const QString heading = QStringLiteral("Answer %1: option %2")
                                        .arg(n)
                                        .arg(Core::optionLetter(std::size_t(right)));
            const QString holds = QStringLiteral("%1, settled at t=%2.")
                                      .arg(Core::optionLine(q, std::size_t(right)))
                                      .arg(play.reveal());
            // the simulator's words as they are (a value may hold a star), the author's as
            // Markdown
            QString why =
                literal(Core::revealExplanation(scene.scenario, play.trace, *play.verdict));
            if (!q.explanation.isEmpty())
                why += QStringLiteral("\n\n") + q.explanation;
            QString others;
            for (std::size_t o = 0; o < q.options.size(); ++o) {
                if (int(o) == right)
                    continue;
                others += QStringLiteral("- **%1**%2\n")
                              .arg(literal(Core::optionLine(q, o)),
                                   q.options[o].feedback.isEmpty()
                                       ? QString()
                                       : QStringLiteral(": ") + q.options[o].feedback);
            }
            const double fixed =
                measure(heading, font(20, true), false) + 10 + 12 +
                measure(holds, font(15, true), false) + 8 + measure(why, font(13)) + 14 +
                measure(QStringLiteral("Why not the others"), font(15, true), false) + 6 +
                measure(others, font(13));
            const double scale = pictureScale(revealPicture(nullptr, {}, 1, scene, play),
                                              m_content.height() - fixed);
            double y = m_content.top();
            y += write(y, heading, font(20, true), false) + 10;
            y += revealPicture(&m_painter, QPointF(m_content.left(), y), scale, scene, play) + 12;
            y += write(y, holds, font(15, true), false) + 8;
            y += write(y, why, font(13)) + 14;
            if (!others.isEmpty()) {
                y += write(y, QStringLiteral("Why not the others"), font(15, true), false) + 6;
                write(y, others, font(13));
            }
        }
    }

    void sources()
    {
        if (m_lesson.sources.isEmpty())
            return;
        newPage();
        double y = m_content.top();
        y += write(y, QStringLiteral("Sources"), font(20, true), false) + 10;
        QString list;
        for (const QString &s : m_lesson.sources)
            list += QStringLiteral("- ") + s + QLatin1Char('\n');
        write(y, list, font(12));
    }

    void setAnswerKey(bool on) { m_key = on; }
    bool finish() { return m_painter.end(); }

private:
    static constexpr double kLine = 28; // ruled lines for the answer

    double write(double y, const QString &content, const QFont &f, bool markdown = true,
                 const QColor &colour = Qt::black)
    {
        return text(&m_painter, QRectF(m_content.left(), y, m_content.width(), 1e6), content, f,
                    markdown, colour);
    }
    double measure(const QString &content, const QFont &f, bool markdown = true) const
    {
        return text(nullptr, QRectF(0, 0, m_content.width(), 1e6), content, f, markdown);
    }
    double optionHeight(const Core::LessonQuestion &q, std::size_t o) const
    {
        return std::max(18.0, text(nullptr, QRectF(0, 0, m_content.width() - 26, 1e6),
                                   Core::optionLine(q, o), font(14), false));
    }
    // The page's width for a picture of natural height `height`, smaller if that leaves less
    // than `room` (never below a third of the width: a long text then runs over the page).
    double pictureScale(double height, double room) const
    {
        const double full = m_content.width() / kPictureWidth;
        return std::clamp(room / std::max(1.0, height), full / 3, full);
    }
    void newPage()
    {
        if (m_pages++ > 0)
            m_pdf.newPage();
    }

    QPdfWriter &m_pdf;
    const Core::Lesson &m_lesson;
    const std::vector<Core::ScenePlay> &m_plays;
    QPainter m_painter;
    QRectF m_content;
    int m_questions = 0;
    int m_pages = 1; // the cover is drawn on the first page
    bool m_key = true;
};

} // namespace

ExportOptions questionPictureOptions(const Core::LessonScene &scene, const Core::ScenePlay &play)
{
    ExportOptions o = pictureOptions(scene, play);
    o.showLegend = false;
    o.playhead = scene.question->freeze;
    return o;
}

ExportOptions answerPictureOptions(const Core::LessonScene &scene, const Core::ScenePlay &play)
{
    ExportOptions o = pictureOptions(scene, play);
    o.playhead = play.reveal();
    return o;
}

void paintQuestionPicture(QPainter *p, const Core::LessonScene &scene, const Core::ScenePlay &play,
                          double scale)
{
    frozenPicture(p, {}, scale, scene, play);
}

void paintAnswerPicture(QPainter *p, const Core::LessonScene &scene, const Core::ScenePlay &play,
                        double scale)
{
    revealPicture(p, {}, scale, scene, play);
}

QImage questionPicture(const Core::LessonScene &scene, const Core::ScenePlay &play, double scale)
{
    const double height = frozenPicture(nullptr, {}, scale, scene, play);
    QImage image(QSize(int(std::ceil(kPictureWidth * scale)), int(std::ceil(height))),
                 QImage::Format_ARGB32_Premultiplied);
    image.fill(Theme::print().background);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    frozenPicture(&p, {}, scale, scene, play);
    return image;
}

QByteArray render(const Core::Lesson &lesson, const std::vector<Core::ScenePlay> &plays,
                  const HandoutOptions &options)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&buffer);
    pdf.setResolution(int(kResolution));
    pdf.setPageLayout(
        QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
    pdf.setTitle(lesson.title);
    pdf.setCreator(QStringLiteral("FenceScope"));
    Writer w(pdf, lesson, plays);
    w.setAnswerKey(options.answerKey);
    w.cover();
    w.questionPages();
    if (options.answerKey)
        w.answerKey();
    w.sources();
    if (!w.finish())
        return {};
    return bytes;
}

QString write(const QString &path, const Core::Lesson &lesson, const HandoutOptions &options)
{
    const std::vector<Core::ScenePlay> plays = Core::playLesson(lesson);
    const QStringList problems = Core::lessonProblems(lesson, plays);
    if (!problems.isEmpty()) // a question without one right option has no answer to key
        return QObject::tr("cannot write %1: %2").arg(path, problems.first());
    const QByteArray bytes = render(lesson, plays, options);
    if (bytes.isEmpty())
        return QObject::tr("cannot write %1: rendering failed").arg(path);
    const std::optional<Core::SaveFailure> failed = Core::saveWhole(path, bytes);
    return failed ? Core::cannotWrite(path, *failed) : QString();
}

} // namespace Handout
