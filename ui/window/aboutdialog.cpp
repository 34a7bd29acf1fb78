#include "window/aboutdialog.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QIcon>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

QString AboutDialog::licenseText()
{
    // legal text: shown as written, never translated
    return QStringLiteral(
        "MIT License\n"
        "\n"
        "Copyright (c) 2026 FenceScope contributors\n"
        "\n"
        "Permission is hereby granted, free of charge, to any person obtaining a copy\n"
        "of this software and associated documentation files (the \"Software\"), to deal\n"
        "in the Software without restriction, including without limitation the rights\n"
        "to use, copy, modify, merge, publish, distribute, sublicense, and/or sell\n"
        "copies of the Software, and to permit persons to whom the Software is\n"
        "furnished to do so, subject to the following conditions:\n"
        "\n"
        "The above copyright notice and this permission notice shall be included in all\n"
        "copies or substantial portions of the Software.\n"
        "\n"
        "THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR\n"
        "IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,\n"
        "FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE\n"
        "AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER\n"
        "LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,\n"
        "OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE\n"
        "SOFTWARE.\n");
}

AboutDialog::AboutDialog(QWidget *parent, const QString &version)
    : QDialog(parent),
      m_version(version.isEmpty() ? QCoreApplication::applicationVersion() : version)
{
    setObjectName(QStringLiteral("aboutDialog"));
    setWindowTitle(tr("About FenceScope"));

    auto *icon = new QLabel(this);
    const QIcon appIcon = QApplication::windowIcon();
    if (!appIcon.isNull())
        icon->setPixmap(appIcon.pixmap(64, 64));
    icon->setVisible(!appIcon.isNull());

    auto *name = new QLabel(tr("FenceScope"), this);
    name->setObjectName(QStringLiteral("aboutName"));
    QFont big = name->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.6);
    name->setFont(big);

    auto *versionLabel = new QLabel(tr("Version %1").arg(m_version), this);
    versionLabel->setObjectName(QStringLiteral("aboutVersion"));
    versionLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *what = new QLabel(
        tr("FenceScope makes fencing tokens visible. A lock service with leases hands every new "
           "owner a higher token, and the storage rejects writes with a token lower than the "
           "highest it has seen. A client paused past its lease then writes with a stale token: "
           "fenced, the write is rejected; unfenced, it silently overwrites newer data."),
        this);
    what->setObjectName(QStringLiteral("aboutDescription"));
    what->setWordWrap(true);

    auto *license = new QLabel(tr("Free software under the MIT License:"), this);
    license->setObjectName(QStringLiteral("aboutLicense"));
    auto *text = new QPlainTextEdit(licenseText(), this);
    text->setObjectName(QStringLiteral("aboutLicenseText"));
    text->setReadOnly(true);
    text->setLineWrapMode(QPlainTextEdit::NoWrap); // the lines as the file breaks them
    text->setAccessibleName(tr("Licence"));
    text->setMinimumHeight(text->fontMetrics().lineSpacing() * 8);
    license->setBuddy(text);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *head = new QHBoxLayout;
    head->addWidget(icon);
    auto *titles = new QVBoxLayout;
    titles->addWidget(name);
    titles->addWidget(versionLabel);
    head->addLayout(titles, 1);
    auto *box = new QVBoxLayout(this);
    box->addLayout(head);
    box->addWidget(what);
    box->addWidget(license);
    box->addWidget(text, 1);
    box->addWidget(buttons);
    buttons->button(QDialogButtonBox::Close)->setDefault(true);
    buttons->button(QDialogButtonBox::Close)->setFocus();
    resize(640, 520);
}
