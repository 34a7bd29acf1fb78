#pragma once

// etcd's JSON gateway (grpc-gateway, POST /v3/...) through QNetworkAccessManager: the supported
// JSON face of etcd's gRPC API (Documentation/dev-guide/api_grpc_gateway.md of etcd 3.4), so no
// gRPC stack is written here. Three things it must get right:
// - HTTP/1.1 only. etcd's listener hands HTTP/2 connections to the native gRPC server (cmux in
//   embed/serve.go), which does not speak JSON.
// - 64-bit numbers stay strings. The gateway writes int64 fields (lease IDs, revisions) as
//   strings, as proto3's JSON mapping does; a double would corrupt a lease ID.
// - One network manager per gateway. Qt opens at most six connections per host and queues the
//   rest, so a keepalive must not wait behind requests that block (a watch, a waiting lock).

#include "scenario.h"

#include <QJsonObject>
#include <QObject>
#include <QUrl>

#include <functional>

class QNetworkAccessManager;
class QNetworkReply;

namespace Live {

class EtcdGateway : public QObject
{
    Q_OBJECT
public:
    explicit EtcdGateway(const QUrl &base, QObject *parent = nullptr);

    // What a call gives back: the response, or the error (a message naming the call).
    using Done = std::function<void(const QJsonObject &response, const QString &error)>;

    // POST `path` (e.g. "/v3/kv/txn") with `body`; `done` runs once with the reply.
    void call(const QString &path, const QJsonObject &body, Done done);
    // A streaming call (watch): `message` runs for every object the stream sends, `ended` once
    // when it ends or fails. Abort it by deleting the returned reply (or abort()).
    QNetworkReply *stream(const QString &path, const QJsonObject &body,
                          std::function<void(const QJsonObject &)> message,
                          std::function<void(const QString &error)> ended);
    // GET `path` (e.g. "/version"), parsed as JSON.
    void get(const QString &path, Done done);

    QUrl base() const { return m_base; }

    // Bytes as the gateway wants them in JSON (keys and values are base64), and back.
    static QString bytes(const QString &text);
    static QString text(const QJsonValue &base64);
    // An int64 field as the gateway writes it (a string; absent means 0).
    static std::uint64_t number(const QJsonValue &v);
    static QString number(std::uint64_t n) { return QString::number(n); }
    // The end of a prefix range: the prefix with its last byte plus one
    // (clientv3.GetPrefixRangeEnd).
    static QString prefixEnd(const QString &prefix);

private:
    QNetworkReply *post(const QString &path, const QJsonObject &body, bool streaming);

    QUrl m_base;
    QNetworkAccessManager *m_net;
};

// The few requests of etcd's API this project sends, spelled once.
namespace Etcd {
// A comparison of a Txn: target CREATE, MOD, VERSION or VALUE; result EQUAL, GREATER, LESS or
// NOT_EQUAL; `operand` a number (as a string) or, for VALUE, text.
QJsonObject compare(const QString &key, const char *target, const char *result,
                    const QString &operand);
QJsonObject put(const QString &key, const QString &value, const QString &lease = {});
QJsonObject range(const QString &key);
// The first (or last) key of a prefix by create_revision, as clientv3's WithFirstCreate() and
// WithLastCreate() ask; with maxCreate > 0 only keys created at or before it.
QJsonObject firstCreated(const QString &prefix, bool last = false, std::uint64_t maxCreate = 0);
QJsonObject deleteKey(const QString &key);
// A Txn request of compares, then success and failure operations (each already a request op).
QJsonObject txn(const QJsonArray &compares, const QJsonArray &success, const QJsonArray &failure);
// The key-value pairs of the n-th response of a Txn reply (a range's), and of a range reply.
QJsonArray txnKvs(const QJsonObject &reply, int n);
QJsonArray kvs(const QJsonObject &reply);
std::uint64_t revision(const QJsonObject &reply); // header.revision
} // namespace Etcd

} // namespace Live
