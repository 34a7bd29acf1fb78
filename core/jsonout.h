#pragma once

// A small streaming JSON text writer with a fixed key order (QJsonObject sorts keys, and a
// million-action trace should not be built as a DOM before it is printed).

#include <QJsonValue>
#include <QString>

#include <cstdint>
#include <cstdio>
#include <string>

namespace Core {

class JsonOut
{
public:
    // With a FILE, output is flushed to it in chunks; without, it accumulates in buffer().
    explicit JsonOut(std::FILE *file = nullptr) : m_file(file) {}
    ~JsonOut() { flush(); }
    JsonOut(const JsonOut &) = delete;
    JsonOut &operator=(const JsonOut &) = delete;

    JsonOut &raw(const char *text)
    {
        m_buf += text;
        maybeFlush();
        return *this;
    }
    JsonOut &key(const char *name) // writes "name":<space>
    {
        m_buf += '"';
        m_buf += name;
        m_buf += "\": ";
        return *this;
    }
    JsonOut &string(const QString &s);
    JsonOut &number(std::uint64_t n);
    JsonOut &boolean(bool b) { return raw(b ? "true" : "false"); }
    JsonOut &null() { return raw("null"); }
    // Any JSON value, compact (used for keys kept from newer files).
    JsonOut &value(const QJsonValue &v);

    // False once a write to the FILE failed (disk full, closed pipe).
    bool flush();
    bool ok() const { return m_ok; }
    const std::string &buffer() const { return m_buf; }

private:
    void maybeFlush()
    {
        if (m_file && m_buf.size() >= (1u << 16))
            flush();
    }

    std::FILE *m_file;
    std::string m_buf;
    bool m_ok = true;
};

} // namespace Core
