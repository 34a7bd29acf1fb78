#include "views/pollbox.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

int PollView::votes(int r) const
{
    if (r < 0 || r > 1)
        return 0;
    int sum = 0;
    for (const int n : counts[std::size_t(r)])
        sum += n;
    return sum;
}

namespace {
constexpr int kGap = 24;         // from the lesson's column
constexpr int kQuietModules = 4; // the quiet zone a reader needs around the code (ISO 18004)
} // namespace

QrCodeWidget::QrCodeWidget(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("pollQr"));
}

void QrCodeWidget::setMatrix(const Poll::QrMatrix &matrix)
{
    m_matrix = matrix;
    updateGeometry();
    update();
}

QSize QrCodeWidget::sizeHint() const
{
    return {PollBox::kQrPixels, PollBox::kQrPixels};
}

void QrCodeWidget::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const int side = std::min(width(), height());
    p.fillRect(QRect(0, 0, side, side), Qt::white); // dark on light, whatever the theme
    const int modules = m_matrix.size + 2 * kQuietModules;
    if (m_matrix.size == 0 || side < modules)
        return;
    // whole pixels per module: a reader wants sharp edges, not smoothed ones
    const int unit = side / modules;
    const int origin = (side - unit * modules) / 2 + kQuietModules * unit;
    for (int y = 0; y < m_matrix.size; ++y)
        for (int x = 0; x < m_matrix.size; ++x)
            if (m_matrix.at(x, y))
                p.fillRect(origin + x * unit, origin + y * unit, unit, unit, Qt::black);
}

PollHistogram::PollHistogram(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("pollHistogram"));
}

void PollHistogram::setView(const PollView &view, const Theme &theme)
{
    m_view = view;
    m_theme = theme;
    // bars long enough to compare, even at the answer where the feedback wants the width
    setMinimumWidth(sizeHint().width());
    updateGeometry();
    update();
}

int PollHistogram::rowHeight() const
{
    return int(30 * m_theme.fontScale);
}

int PollHistogram::labelWidth() const
{
    return int(24 * m_theme.fontScale);
}

int PollHistogram::countWidth() const
{
    // room for "300" beside the longest bar
    return int(40 * m_theme.fontScale);
}

QSize PollHistogram::sizeHint() const
{
    const int options = int(m_view.counts[0].size());
    const int rounds = std::clamp(m_view.rounds, 1, 2);
    // no wider than needed: at the answer the options' feedback wants the stage's width
    return {labelWidth() + rounds * (countWidth() + int(60 * m_theme.fontScale)),
            (options + 1) * rowHeight()};
}

QList<PollHistogram::Bar> PollHistogram::bars() const
{
    QList<Bar> out;
    const int rounds = std::clamp(m_view.rounds, 0, 2);
    int most = 0;
    for (int r = 0; r < rounds; ++r)
        for (const int n : m_view.counts[std::size_t(r)])
            most = std::max(most, n);
    // one scale for both rounds: the second vote's shift reads as a change of length
    const int column = rounds > 0 ? (width() - labelWidth()) / rounds : 0;
    const int longest = std::max(0, column - countWidth());
    const int row = rowHeight();
    for (int r = 0; r < rounds; ++r) {
        const auto &counts = m_view.counts[std::size_t(r)];
        for (std::size_t o = 0; o < counts.size(); ++o) {
            Bar b;
            b.round = r;
            b.option = int(o);
            b.count = counts[o];
            const int length = most > 0 ? int(qint64(longest) * b.count / most) : 0;
            // the header row first, then a row per option
            b.rect = QRect(labelWidth() + r * column, int(o + 1) * row + row / 5, length,
                           row - 2 * (row / 5));
            b.colour = int(o) == m_view.right ? m_theme.accepted
                       : r == 0               ? m_theme.muted
                                              : m_theme.foreground;
            out.append(b);
        }
    }
    return out;
}

void PollHistogram::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::TextAntialiasing);
    QFont big = font();
    big.setPixelSize(std::max(1, int(18 * m_theme.fontScale)));
    big.setBold(true);
    QFont small = font();
    small.setPixelSize(std::max(1, int(11 * m_theme.fontScale)));
    const int row = rowHeight();
    const int rounds = std::clamp(m_view.rounds, 0, 2);
    const int column = rounds > 0 ? (width() - labelWidth()) / rounds : 0;
    p.setPen(m_theme.muted);
    p.setFont(small);
    for (int r = 0; r < rounds && rounds > 1; ++r)
        p.drawText(QRect(labelWidth() + r * column, 0, column, row),
                   Qt::AlignLeft | Qt::AlignBottom, r == 0 ? tr("1st vote") : tr("after talk"));
    for (const Bar &b : bars()) {
        p.setFont(big);
        if (b.round == 0) {
            p.setPen(m_theme.foreground);
            p.drawText(QRect(0, b.rect.top() - row / 5, labelWidth(), row), Qt::AlignVCenter,
                       QString(QChar(u'A' + b.option)));
        }
        p.fillRect(b.rect, b.colour);
        p.setPen(int(b.option) == m_view.right ? m_theme.acceptedText : m_theme.foreground);
        p.drawText(QRect(b.rect.right() + 6, b.rect.top() - row / 5, countWidth(), row),
                   Qt::AlignVCenter | Qt::AlignLeft, QString::number(b.count));
    }
}

PollBox::PollBox(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("pollBox"));
    m_qr = new QrCodeWidget(this);
    m_address = new QLabel(this);
    m_address->setObjectName(QStringLiteral("pollAddress"));
    m_address->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_reach = new QLabel(this);
    m_reach->setObjectName(QStringLiteral("pollReach"));
    m_reach->setWordWrap(true);
    m_votes = new QLabel(this);
    m_votes->setObjectName(QStringLiteral("pollVotes"));
    m_votes->setWordWrap(true);
    m_interface = new QComboBox(this);
    m_interface->setObjectName(QStringLiteral("pollInterface"));
    m_interface->setFocusPolicy(Qt::NoFocus); // presentation's keys stay presentation's
    m_interface->setToolTip(tr("The network the phones reach this computer on"));
    // the teacher's pick (setView() fills the list with its signals blocked)
    connect(m_interface, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (!m_view.interfaces.isEmpty())
            emit interfaceChosen(index);
    });
    m_bars = new PollHistogram(this);
    const auto button = [this](const QString &name, const QString &text) {
        auto *b = new QPushButton(text, this);
        b->setObjectName(name);
        b->setFocusPolicy(Qt::NoFocus); // presentation's keys stay presentation's
        return b;
    };
    m_start = button(QStringLiteral("pollStart"), tr("Poll the room (P)"));
    m_histogram = button(QStringLiteral("pollShowVotes"), tr("Show votes (H)"));
    m_again = button(QStringLiteral("pollAgain"), tr("Vote again (V)"));
    m_stop = button(QStringLiteral("pollStop"), tr("Stop poll"));
    connect(m_start, &QPushButton::clicked, this, &PollBox::startRequested);
    connect(m_stop, &QPushButton::clicked, this, &PollBox::stopRequested);
    connect(m_histogram, &QPushButton::clicked, this, &PollBox::histogramRequested);
    connect(m_again, &QPushButton::clicked, this, &PollBox::secondRoundRequested);
    // the code at the left, what it says beside it: as low as the code, for the timeline
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(12);
    row->addWidget(m_qr, 0, Qt::AlignTop);
    auto *col = new QVBoxLayout;
    col->setSpacing(4);
    col->addWidget(m_start);
    col->addWidget(m_interface);
    col->addWidget(m_address);
    col->addWidget(m_votes);
    col->addWidget(m_bars);
    col->addWidget(m_reach);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_histogram);
    buttons->addWidget(m_again);
    buttons->addWidget(m_stop);
    col->addLayout(buttons);
    col->addStretch(1);
    row->addLayout(col);
    // as wide as what it shows, never wider: the lesson's column takes the rest
    setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Preferred);
    setTheme(m_theme);
}

void PollBox::setTheme(const Theme &theme)
{
    m_theme = theme;
    const int qr = int(kQrPixels * std::max(1.0, theme.fontScale * 0.8));
    m_qr->setFixedSize(qr, qr);
    QFont big = font();
    big.setPixelSize(std::max(1, int(14 * theme.fontScale)));
    big.setBold(true);
    m_address->setFont(big);
    QFont small = font();
    small.setPixelSize(std::max(1, int(11 * theme.fontScale)));
    m_reach->setFont(small);
    m_votes->setFont(big);
    for (QPushButton *b : {m_start, m_histogram, m_again, m_stop})
        b->setFont(small);
    m_interface->setFont(small);
    m_bars->setView(m_view, theme);
    m_reach->setStyleSheet(QStringLiteral("color: %1;").arg(theme.muted.name()));
}

void PollBox::setView(const PollView &view, bool asking)
{
    // Everything shows beside a question only (`asking`): the scene's opening and the answer
    // need the stage's width. The poll goes on meanwhile.
    m_view = view;
    const bool on = view.on && asking;
    m_start->setVisible(!view.on && asking);
    m_start->setToolTip(view.error);
    {
        // filled again only when the list changed: an open popup is not closed by a vote
        const QSignalBlocker quiet(m_interface);
        const QStringList items =
            view.interfaces.isEmpty() ? QStringList{tr("no network")} : view.interfaces;
        QStringList shown;
        for (int i = 0; i < m_interface->count(); ++i)
            shown << m_interface->itemText(i);
        if (shown != items) {
            m_interface->clear();
            m_interface->addItems(items);
        }
        m_interface->setCurrentIndex(std::max(0, view.interface));
        m_interface->setEnabled(!view.interfaces.isEmpty());
        m_interface->setVisible(asking);
    }
    m_qr->setVisible(on);
    m_qr->setMatrix(view.qr);
    m_address->setVisible(on);
    m_address->setText(on ? tr("%1\nroom %2").arg(view.address, view.code) : QString());
    m_reach->setVisible(on || (asking && !view.error.isEmpty()));
    if (!view.error.isEmpty())
        m_reach->setText(view.error);
    else if (view.pages == 0)
        m_reach->setText(tr("No phone has reached this page yet. If none can, campus Wi-Fi may "
                            "keep them apart: use the laptop's hotspot (README)."));
    else
        m_reach->setText(view.pages == 1
                             ? tr("Phones reach this page (1 page load).")
                             : tr("Phones reach this page (%1 page loads).").arg(view.pages));
    const bool question = on && view.rounds > 0;
    m_votes->setVisible(question);
    const int votes = view.votes(std::max(0, view.rounds - 1));
    const QString count = votes == 1 ? tr("1 vote") : tr("%1 votes").arg(votes);
    m_votes->setText(!question         ? QString()
                     : view.rounds > 1 ? tr("%1 after talk").arg(count)
                                       : count);
    m_histogram->setVisible(question);
    m_histogram->setText(view.histogram ? tr("Hide votes (H)") : tr("Show votes (H)"));
    m_again->setVisible(question && view.rounds < 2 && view.open);
    m_stop->setVisible(on);
    // a gap from the lesson's column when it shows anything; none (and no width) when empty.
    // (The box itself stays shown: a child of the stage that came and went would lay the
    // window out again while presentation measures the stage.)
    // the bars: when the teacher shows the votes, and at the reveal (the box then shows only
    // them: both rounds, the right option in the accepted colour)
    const bool revealed = view.on && view.rounds > 0 && view.right >= 0;
    m_bars->setVisible((question && view.histogram) || revealed);
    m_bars->setView(view, m_theme);
    const bool shown = asking || revealed;
    layout()->setContentsMargins(shown ? kGap : 0, 0, 0, 0);
    setMaximumWidth(shown ? QWIDGETSIZE_MAX : 0);
}

QString PollBox::addressText() const
{
    return m_address->isVisibleTo(this) ? m_address->text() : QString();
}

QStringList PollBox::interfaceTexts() const
{
    QStringList items;
    for (int i = 0; i < m_interface->count(); ++i)
        items << m_interface->itemText(i);
    return items;
}

QString PollBox::reachText() const
{
    return m_reach->isVisibleTo(this) ? m_reach->text() : QString();
}

QString PollBox::votesText() const
{
    return m_votes->isVisibleTo(this) ? m_votes->text() : QString();
}
