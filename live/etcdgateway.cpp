#include "etcdgateway.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>

#include <memory>
#include <utility>

namespace Live {

namespace {

// A call that takes this long has lost its etcd: a lease's whole life is a few seconds here.
const int kCallTimeoutMs = 10000;

QString replyError(QNetworkReply *reply, const QString &path)
{
    return QStringLiteral("%1: %2").arg(path, reply->errorString());
}

// The JSON object of a reply; the gateway reports a failed call as {"error": ..., "message": ...}.
QJsonObject parse(const QByteArray &bytes, QString *error)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &pe);
    if (!doc.isObject()) {
        *error = QStringLiteral("not a JSON object (%1)").arg(pe.errorString());
        return {};
    }
    QJsonObject o = doc.object();
    if (o.contains(QLatin1String("error")) && !o.contains(QLatin1String("result"))) {
        const QString message = o.value(QLatin1String("message")).toString();
        *error = message.isEmpty() ? o.value(QLatin1String("error")).toString() : message;
    }
    return o;
}

} // namespace

EtcdGateway::EtcdGateway(const QUrl &base, QObject *parent)
    : QObject(parent), m_base(base), m_net(new QNetworkAccessManager(this))
{
    // a proxy from the environment must not see requests to 127.0.0.1
    m_net->setProxy(QNetworkProxy::NoProxy);
}

QNetworkReply *EtcdGateway::post(const QString &path, const QJsonObject &body, bool streaming)
{
    QUrl url = m_base;
    url.setPath(path);
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    if (!streaming)
        request.setTransferTimeout(kCallTimeoutMs);
    return m_net->post(request, QJsonDocument(body).toJson(QJsonDocument::Compact));
}

void EtcdGateway::call(const QString &path, const QJsonObject &body, Done done)
{
    QNetworkReply *reply = post(path, body, false);
    connect(reply, &QNetworkReply::finished, this, [reply, path, done = std::move(done)] {
        reply->deleteLater();
        const QByteArray bytes = reply->readAll();
        if (reply->error() != QNetworkReply::NoError && bytes.isEmpty()) {
            done({}, replyError(reply, path));
            return;
        }
        QString error;
        const QJsonObject o = parse(bytes, &error);
        done(o, error.isEmpty() ? error : path + QLatin1String(": ") + error);
    });
}

void EtcdGateway::get(const QString &path, Done done)
{
    QUrl url = m_base;
    url.setPath(path);
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    request.setTransferTimeout(kCallTimeoutMs);
    QNetworkReply *reply = m_net->get(request);
    connect(reply, &QNetworkReply::finished, this, [reply, path, done = std::move(done)] {
        reply->deleteLater();
        if (reply->error() != QNetworkReply::NoError) {
            done({}, replyError(reply, path));
            return;
        }
        QString error;
        const QJsonObject o = parse(reply->readAll(), &error);
        done(o, error);
    });
}

QNetworkReply *EtcdGateway::stream(const QString &path, const QJsonObject &body,
                                   std::function<void(const QJsonObject &)> message,
                                   std::function<void(const QString &)> ended)
{
    QNetworkReply *reply = post(path, body, true);
    // the gateway sends one JSON object per line, as the events come
    auto pending = std::make_shared<QByteArray>();
    connect(reply, &QNetworkReply::readyRead, this, [reply, pending, message = std::move(message)] {
        pending->append(reply->readAll());
        for (qsizetype nl; (nl = pending->indexOf('\n')) >= 0;) {
            const QByteArray line = pending->left(nl).trimmed();
            pending->remove(0, nl + 1);
            if (line.isEmpty())
                continue;
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            message(o.value(QLatin1String("result")).toObject());
        }
    });
    connect(reply, &QNetworkReply::finished, this, [reply, path, ended = std::move(ended)] {
        reply->deleteLater();
        ended(reply->error() == QNetworkReply::NoError ? QString() : replyError(reply, path));
    });
    return reply;
}

QString EtcdGateway::bytes(const QString &text)
{
    return QString::fromLatin1(text.toUtf8().toBase64());
}

QString EtcdGateway::text(const QJsonValue &base64)
{
    return QString::fromUtf8(QByteArray::fromBase64(base64.toString().toLatin1()));
}

std::uint64_t EtcdGateway::number(const QJsonValue &v)
{
    // proto3's JSON mapping writes int64 as a string; zero values are left out
    if (v.isString())
        return v.toString().toULongLong();
    if (v.isDouble())
        return std::uint64_t(v.toDouble());
    return 0;
}

QString EtcdGateway::prefixEnd(const QString &prefix)
{
    QByteArray end = prefix.toUtf8();
    while (!end.isEmpty()) {
        const auto last = static_cast<unsigned char>(end.back());
        if (last < 0xff) {
            end.back() = char(last + 1);
            return QString::fromUtf8(end);
        }
        end.chop(1);
    }
    return QStringLiteral("\0"); // (never here: prefixes are ASCII)
}

namespace Etcd {

QJsonObject compare(const QString &key, const char *target, const char *result,
                    const QString &operand)
{
    QJsonObject c{{QStringLiteral("key"), EtcdGateway::bytes(key)},
                  {QStringLiteral("target"), QLatin1String(target)},
                  {QStringLiteral("result"), QLatin1String(result)}};
    const QLatin1String t(target);
    if (t == QLatin1String("CREATE"))
        c.insert(QStringLiteral("create_revision"), operand);
    else if (t == QLatin1String("MOD"))
        c.insert(QStringLiteral("mod_revision"), operand);
    else if (t == QLatin1String("VERSION"))
        c.insert(QStringLiteral("version"), operand);
    else
        c.insert(QStringLiteral("value"), EtcdGateway::bytes(operand));
    return c;
}

QJsonObject put(const QString &key, const QString &value, const QString &lease)
{
    QJsonObject p{{QStringLiteral("key"), EtcdGateway::bytes(key)},
                  {QStringLiteral("value"), EtcdGateway::bytes(value)}};
    if (!lease.isEmpty())
        p.insert(QStringLiteral("lease"), lease);
    return {{QStringLiteral("request_put"), p}};
}

QJsonObject range(const QString &key)
{
    return {{QStringLiteral("request_range"),
             QJsonObject{{QStringLiteral("key"), EtcdGateway::bytes(key)}}}};
}

QJsonObject firstCreated(const QString &prefix, bool last, std::uint64_t maxCreate)
{
    // WithFirstCreate / WithLastCreate: the whole prefix, sorted by create_revision, one key
    QJsonObject r{
        {QStringLiteral("key"), EtcdGateway::bytes(prefix)},
        {QStringLiteral("range_end"), EtcdGateway::bytes(EtcdGateway::prefixEnd(prefix))},
        {QStringLiteral("sort_target"), QStringLiteral("CREATE")},
        {QStringLiteral("sort_order"), last ? QStringLiteral("DESCEND") : QStringLiteral("ASCEND")},
        {QStringLiteral("limit"), QStringLiteral("1")}};
    if (maxCreate > 0)
        r.insert(QStringLiteral("max_create_revision"), EtcdGateway::number(maxCreate));
    return {{QStringLiteral("request_range"), r}};
}

QJsonObject deleteKey(const QString &key)
{
    return {{QStringLiteral("request_delete_range"),
             QJsonObject{{QStringLiteral("key"), EtcdGateway::bytes(key)}}}};
}

QJsonObject txn(const QJsonArray &compares, const QJsonArray &success, const QJsonArray &failure)
{
    QJsonObject t{{QStringLiteral("success"), success}};
    if (!compares.isEmpty())
        t.insert(QStringLiteral("compare"), compares);
    if (!failure.isEmpty())
        t.insert(QStringLiteral("failure"), failure);
    return t;
}

QJsonArray txnKvs(const QJsonObject &reply, int n)
{
    const QJsonArray responses = reply.value(QLatin1String("responses")).toArray();
    if (n >= responses.size())
        return {};
    return responses[n][QLatin1String("response_range")][QLatin1String("kvs")].toArray();
}

QJsonArray kvs(const QJsonObject &reply)
{
    return reply.value(QLatin1String("kvs")).toArray();
}

std::uint64_t revision(const QJsonObject &reply)
{
    return EtcdGateway::number(reply[QLatin1String("header")][QLatin1String("revision")]);
}

} // namespace Etcd

} // namespace Live
