#pragma once

// The QR code of the poll's address (libqrencode): a square of modules, dark or light, that
// the projector draws as crisp squares. No drawing here.

#include <QString>

#include <vector>

namespace Poll {

struct QrMatrix
{
    int size = 0;           // modules per side, without the quiet zone; 0: none
    std::vector<bool> dark; // row by row
    bool at(int x, int y) const
    {
        return dark[std::size_t(y) * std::size_t(size) + std::size_t(x)];
    }
};

// `text` encoded with error correction level M (15% of the code may be covered or dirty).
// An empty matrix when libqrencode refuses it (too long).
QrMatrix qrEncode(const QString &text);

} // namespace Poll
