#pragma once

// What the keyboard reaches in the timeline and what a screen reader hears about it. The focus
// walks client by client: the lane's header cell, then its actions in time order (ties in
// listed order, since a drag can leave the list out of order); after the clients, each
// storage lane (its settings: the Menu key, Enter). Pure functions of the scenario, so the
// widget, its accessible description and the tests agree.
//
// For assistive technology the timeline is a tree: the widget (a pane named "Timeline"), one
// list per client lane, one list item per action, then one list per storage lane (with no
// items: its arrivals are the writes' outcomes), each with its words, its rectangle on screen
// and its focused / selected state. Items are made when asked for and kept until the widget
// goes (a million actions cost nothing until a screen reader walks them).

#include "scenario.h"

#include <QCoreApplication>
#include <QString>

// One place the keyboard focus can stand: a client lane's header (action -1), an action, or a
// storage lane's header (client -1, storage >= 0).
struct FocusStop
{
    int client = -1;
    int action = -1;
    int storage = -1;

    static FocusStop ofStorage(int storage) { return {-1, -1, storage}; }
    bool isNone() const { return client < 0 && storage < 0; }
    bool isLane() const { return client >= 0 && action < 0; } // a client's lane
    bool isAction() const { return client >= 0 && action >= 0; }
    bool isStorage() const { return client < 0 && storage >= 0; }
    friend bool operator==(const FocusStop &a, const FocusStop &b)
    {
        return a.client == b.client && a.action == b.action && a.storage == b.storage;
    }
    friend bool operator!=(const FocusStop &a, const FocusStop &b) { return !(a == b); }
};

class TimelineView;

class TimelineAccessible
{
    Q_DECLARE_TR_FUNCTIONS(TimelineAccessible)
public:
    // Does `stop` name a client lane, an action or a storage lane of `s`?
    static bool isValid(const Core::Scenario &s, FocusStop stop);
    // The stop after (forward) or before `from`; from none: the first (or last) stop. None when
    // the walk leaves the timeline. O(actions of one client): no sorted copy is kept.
    static FocusStop next(const Core::Scenario &s, FocusStop from, bool forward);
    // "Client A, pause from 1 to 30"; "Client A lane, 3 actions"; "Storage db lane, 2 writes";
    // empty for none.
    static QString describe(const Core::Scenario &s, FocusStop stop);

    // Registers the factory that gives every TimelineView the tree described above (once).
    static void installFactory();
    // Tells assistive technology that the focus moved to `stop` of `view` (when it listens).
    static void notifyFocus(TimelineView *view, FocusStop stop);
};
