#pragma once

// The window's parts as a test reaches them: found by their type (and name, where the type is
// not enough) among the window's children, as a person finds them on screen, instead of
// through accessors in the window's API. A part missing, or found twice, stops the test.

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QString>
#include <QtGlobal>

template <class T> T *part(const QObject &window, const QString &name = QString())
{
    const QList<T *> found = window.findChildren<T *>(name);
    if (found.size() != 1)
        qFatal("the window has %d parts of type %s named \"%s\", not one", int(found.size()),
               T::staticMetaObject.className(), qPrintable(name));
    return found.first();
}

// The same for a dialog's widget by its object name: part<QSpinBox>(dialog, "width").
template <class T> T *part(const QObject &dialog, const char *name)
{
    return part<T>(dialog, QString::fromLatin1(name));
}
