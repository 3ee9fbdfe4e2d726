// script/bench-kiosk: the Qt Quick peer's start-up alone (loading, the first frames and
// AutoPlay's first half second of rest, then quit), subtracted from qt-autoplay.qml's CPU
// to leave its gestures'.
import QtQuick
import QtQuick.Window

Window {
    visible: true
    visibility: Window.FullScreen
    PullList { anchors.fill: parent }
    Timer { interval: 500; running: true; onTriggered: Qt.quit() }
}
