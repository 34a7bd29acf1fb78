#include "jsonout.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace Core {

JsonOut &JsonOut::string(const QString &s)
{
    const QByteArray utf8 = s.toUtf8();
    m_buf += '"';
    for (const char ch : utf8) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"':
            m_buf += "\\\"";
            break;
        case '\\':
            m_buf += "\\\\";
            break;
        case '\n':
            m_buf += "\\n";
            break;
        case '\r':
            m_buf += "\\r";
            break;
        case '\t':
            m_buf += "\\t";
            break;
        default:
            if (c < 0x20) {
                char esc[8];
                std::snprintf(esc, sizeof esc, "\\u%04x", c);
                m_buf += esc;
            } else {
                m_buf += ch;
            }
        }
    }
    m_buf += '"';
    maybeFlush();
    return *this;
}

JsonOut &JsonOut::number(std::uint64_t n)
{
    char digits[24];
    const int len = std::snprintf(digits, sizeof digits, "%llu", static_cast<unsigned long long>(n));
    m_buf.append(digits, std::size_t(len));
    maybeFlush();
    return *this;
}

JsonOut &JsonOut::value(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return null();
    case QJsonValue::Bool:
        return boolean(v.toBool());
    case QJsonValue::String:
        return string(v.toString());
    case QJsonValue::Double:
    case QJsonValue::Array:
    case QJsonValue::Object: {
        // let Qt print numbers and containers; wrap scalars so QJsonDocument accepts them
        QJsonArray wrapper{v};
        QByteArray text = QJsonDocument(wrapper).toJson(QJsonDocument::Compact);
        m_buf.append(text.constData() + 1, std::size_t(text.size() - 2));
        maybeFlush();
        return *this;
    }
    }
    return *this;
}

bool JsonOut::flush()
{
    if (!m_file || m_buf.empty())
        return m_ok;
    if (std::fwrite(m_buf.data(), 1, m_buf.size(), m_file) != m_buf.size())
        m_ok = false;
    m_buf.clear();
    return m_ok;
}

} // namespace Core
