// script/bench-kiosk: the Qt Quick peer (../shared/peers/qml/AutoPlay.qml, copied beside
// this file into the image) filling the screen as the kiosk does (720x1280), so both draw
// the same pixels; it plays its pull, refresh and two flings and quits.
import QtQuick
import QtQuick.Window

Window {
    visible: true
    visibility: Window.FullScreen
    AutoPlay { anchors.fill: parent }
}
