#pragma once

// Help > About FenceScope: the name, the version (the application's, which main.cpp sets from
// the build's FENCESCOPE_VERSION, the one --version prints), a line on what FenceScope is, and
// the licence, MIT, in full.

#include <QDialog>

class QLabel;
class QPlainTextEdit;

class AboutDialog : public QDialog
{
    Q_OBJECT
public:
    // `version` empty: QCoreApplication::applicationVersion().
    explicit AboutDialog(QWidget *parent = nullptr, const QString &version = {});

    QString version() const { return m_version; }
    // The text of the LICENSE file shipped with the sources (tests keep the two equal).
    static QString licenseText();

private:
    QString m_version;
};
