import OverscrollKit

extension ReplayDriver {
    /// `play` with refresh work, as `overscroll replay` runs a script without drawing: the
    /// work a frame asks for starts on `source`, and what it finishes joins the model's
    /// frames in time order (`OverscrollModel.frame`). The tests and the fuzzer run here.
    public mutating func play(_ model: inout OverscrollModel, source: any RefreshSource,
                              each: (PlayedFrame, inout OverscrollModel) -> Bool) {
        let inbox = RefreshInbox()
        play(&model, completions: inbox.take) { played, model in
            source.start(played.effects, inbox: inbox)
            return each(played, &model)
        }
    }
}
