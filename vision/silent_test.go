package vision

import (
	"image"
	"slices"
	"testing"

	"github.com/decant/decant/solver"
	"github.com/decant/decant/vision/render"
)

// TestOnceSilentlyWrong reads random scenes that each once gave a wrong level with no error,
// one per kind of mistake. Each must now read exactly, or be refused where the image allows
// two readings that both keep the rules.
func TestOnceSilentlyWrong(t *testing.T) {
	for _, tc := range []struct {
		seed  uint64
		exact bool
		kind  string
	}{
		{11000150, true, "an empty tube of tinted glass read as a full tube of one colour, beside tubes whose glass shows above their liquid"},
		{11000412, true, "the same, where every other tube is full and the glass shows only as their top band"},
		{13000354, true, "the same, where the glass band over two tubes' liquid reaches their tops"},
		{11000387, false, "the same, where the glass shows only in another empty tube, a shade off over a blurred background: either reading keeps the rules"},
		{15000571, false, "the same, the glass seen only in the room above four tubes' liquid, lighter there over a glow"},
		{15000462, true, "an empty tube with a faint outline missed at a row's end"},
		{13000359, true, "doodles at the screen's edge, alone in their rows, read as empty tubes"},
		{13000406, true, "a mystery level's unit read 1.2 units tall, the five glyphs of each hidden run fitting four"},
		{13000347, false, "tubes of 4 whose colours lie in pairs read as tubes of 2"},
		{1000035, false, "a mystery level's capacity raised by one for the headroom above tubes all filled alike, its hidden units told by no glyph"},
		{13000113, false, "hatched hidden boxes split into one unit more than they hold, in tubes all filled alike"},
		{17000362, false, "every unit of a frosted tube's layers read as two, in tubes of 8 for 4"},
		{15000317, false, "the glass at each tube's bottom taken for one hidden unit in every tube"},
		{57000736, true, "the title's frame read as an empty tube in a row of its own, unlike the three empty tubes"},
		{57000616, true, "an empty box unlike the empty tubes, in place of the empty tube at a row's end"},
		{13000105, false, "two curtains named by their lanterns' gold frames, not the colours in the panes; every open tube full, so no pour"},
		{1000017, true, "a tube of hidden units under a colour taken for a curtain: dark boxes for cloth, the colour for a lantern"},
		{13000394, false, "a lid over one tube taken for hidden units told by the rules alone"},
		{15000573, false, "units amid the liquid taken for hidden units told by the rules alone"},
		{19000620, false, "a row's boxes set below its tubes: the background under them taken for hidden units told by the rules alone"},
		{21000368, true, "a lid the curtain search missed, beside one it found, read as liquid under its padlock (found now by its cloth, in tubes taller than any liquid)"},
		{29000370, false, "two curtains named by their lanterns' gold frames round grey panes"},
		{21000261, true, "a tube of one colour in dark tinted glass taken for a curtain, its liquid for the lantern"},
		{27000676, true, "the same, in a row of tubes with corks"},
		{33000381, false, "a button under a mystery board, alone in its row, read as an empty tube (its hidden units told by the rules alone: refused now, TestStrayRows keeps the fix)"},
		{33000633, false, "a mystery board's hidden units told by the rules alone, an empty tube missed at a row's end: with no colour complete the counts check nothing (refused now as a place at the row's end that looks like the empty tube found)"},
		{35000530, false, "the same, five tubes of discs with \"?\" missed (refused now as boxes of the hidden units' look outside the tubes)"},
		{33000568, false, "the gap between a title's letters, alone in its row far above the board, read as an empty tube (refused now, as above)"},
		{39000269, false, "the same, two tubes of grey boxes missed whose regions touch through a glow: each too wide alone, the columns a unit tall are still two boxes"},
		{20261268783742, false, "a mystery board of tubes of 3 read in thirds, tubes of 9: the hidden run of 6 and the top run of 3 keep the rules either way"},
		{47000563, true, "tubes of 6 read as tubes of 5: a unit a fifth too tall fits every height within the meniscus' tolerance, each top unit off by its own share"},
		{47000497, true, "the same, on a small screen"},
		{47000332, false, "a mystery board read in boxes inside the tubes: thirteen of sixteen tubes read empty, their grey hidden units taken for glass"},
		{47000400, false, "a mystery board's tube read empty, its grey hidden units taken for glass (refused now: boxes of the hidden units' look below the top of a tube read empty)"},
		{49000319, false, "a photo of a screen read with 7 of 11 tubes' liquid missed"},
		{1000147, false, "a mystery board of grey boxes near a grey-green background, two tubes missed: the search for boxes in the hidden units' look took the whole background in"},
		{59000195, true, "a box beside the board, alone in its row, read as an empty tube: the layout without it explains the same liquid"},
		{59000319, true, "a box in the status bar, alone in its row, read as an empty tube unlike the board's empty tube"},
		{59000765, true, "a whole colour near the background's read as glass, in two tubes, with the glass above it: the counts stay whole without it"},
		{59000721, false, "tubes of 4 read in units 0.4 tall, tubes of 10, more than games deal"},
		{59000179, true, "the last two tubes of an unevenly spaced row, added at the row's pitch off their outlines and misread: a whole colour and three hidden units missed"},
		{59000649, false, "a curtain's lantern ΔE 8 from a liquid, named after it, where it waits for a near colour the hidden units hold"},
		{61000418, false, "a curtain's lantern ΔE 21 from two liquids, named a colour of its own"},
		{67000731, false, "a mystery position of tubes of 4, each a unit short of full, read as full tubes of 3: the glyphs count the hidden units, and the counts allow both"},
		{71000548, true, "a screenshot taken for a photo: the dark outlines of two uneven rows of tubes passed for a tilted phone's body, and the screen found cut the last empty tube off"},
		{71000673, true, "the last of three empty tubes missed: a reading with two empty tubes was more plausible, though all three look alike"},
		{71000397, false, "a black liquid's bubbles taken for hidden units' glyphs: the five black units, read hidden, made one colour none of whose units shows, every colour in view complete"},
		{20261275783696, false, "a photo whose warped reading, refused, has a box at the screen's edge: read unwarped instead, its tilted rows gained a tube (the unwarped reading is tried only for a warped one the rules verify)"},
		{71000798, true, "the last empty tube of an unevenly spaced row dropped as off the row's beat, though its outline is the twin of the others"},
		// Refused by crossCheck: moved by half a pixel, each image reads as another level that
		// keeps the rules too.
		{20261276783821, false, "an empty tube added at a row's end, over a vertical gradient with a shelf under the tubes"},
		{20261276783868, false, "the empty tube at a row's start missed, in a row of numbered tubes on a shelf"},
		{20261276783977, false, "a mystery board on wood read with a tube of liquid more than it holds"},
		{20261276784006, false, "three full tubes and an empty one missed over doodles: tubes full of one colour and empty ones leave the counts whole"},
		{20261276784037, false, "an empty tube added at the end of a mystery board's row, on a tablet"},
		{71000765, false, "curtains and tubes missed in a board of three rows"},
		{20261276783677, false, "an empty tube at a row's end missed on a small screen, a bokeh light behind it"},
		{20261276783698, false, "sheets over tubes read in units a sixth too short, tubes of 6 for 5"},
		{20261276783992, false, "three sheets read as tubes of the same five layers, their folds for liquid (refused by repeatedTubes)"},
		{20261276783653, false, "a curtain named by its lantern's gold frame, the pane inside it the cloth's colour"},
		{1000043, false, "the holder under four tubes of a mystery board read as one hidden unit more, tubes of 6 for 5 beside a lid the counts cannot check (refused by unevenBottom)"},
		{20261276783664, true, "tubes beside a lid read as tubes of 6 for 5: the units in view, 18, divide by 6, but a lid hides units the count leaves out"},
		{77000332, true, "the only empty tube, at the end of the shorter of two rows, missed: with no empty tube found, the glass above a tube's liquid shows what one looks like (emptyBeyondEnds; the reading with the place as a tube is tried since session 22)"},
		{20261279783672, false, "a board of three rows read as its last row alone, two tubes of hidden discs and three empty tubes: the other rows' hidden boxes, each split in two by its disc and a glare stripe, were too narrow to be found outside the tubes"},
		{77000617, true, "two curtains beside the one tube of their row missed: the row is now completed at the other rows' pitch, and the reading with them counted them as empty tubes beyond the usual two"},
		{83000544, false, "a mystery board beside a curtain read as tubes of 6 for 5: with hidden units told by no glyph and a curtain, nothing counts the units, and the headroom raised the tubes' height by one (refused: such readings are no longer refused for the two doubts alone)"},
		{83000341, true, "a mystery board of grey boxes with \"?\" beside a curtain, refused for its two doubts together: hidden units told by no glyph, and a curtain the counts cannot check"},
		{85000535, true, "a mystery board of hatched boxes read as tubes of 3 for 4: every tube's box, closed by the edges a unit above its foot over a holder, cut the lowest hidden unit off (cutBottom)"},
		{85000262, false, "a mystery board's curtain of striped cloth, its lantern too small to find, read as a tube full of one liquid beside tubes each showing only its top (refused by completeAtStart: an untouched deal holds no complete tube)"},
		{20261287783857, false, "a board of discs with \"?\", their hidden units told by the rules alone, one disc read as a colour between them (refused by shownUnderHidden)"},
		{20261286784193, false, "a photo of tubes whose boxes start at their liquid's top: their top layers, taken for corks, raised, but the complete tubes, one run from box top to bottom, left empty; the counts keep without them (raiseLids raises those too now)"},
		{89000413, false, "a photo of a mystery board of discs with \"?\", a tube missed at a row's start: its discs, narrower there than the boxes found, matched only as narrow regions one above another (refused by stackedHalves)"},
		{91000424, false, "a bokeh light between outlines, read as a tube of one colour no other tube holds, read empty instead, a tube more than the level has (loneFeet reads a tube empty only where it looks like an empty tube)"},
		{20261289783974, false, "a small board of four full tubes read as tubes of 2, refused as too short to deal, then read in half the unit as tubes of 4 that keep the rules as well (a smaller unit is tried only where the favoured one breaks the count rule)"},
		{20261290784032, false, "a curtain's lantern read from its gold frame, naming the one colour complete in view (refused: a curtain opens when its colour is complete, so none waits for a colour complete in view)"},
		{20261290784180, false, "two sheets over bulbs, one badge read as the colour a full tube holds (refused as the curtain above)"},
		{20261291784271, true, "a tube full of one colour, its box cut at its top, read empty: its one run, from the box's top to its bottom, taken for a cork, and the colour's four units gone with it leave the counts whole (raiseLids now raises such a run, like no glass and no other, as a hypothesis the rules check)"},
		{20261291783984, true, "a full tube of a colour near the background's read empty, with hidden units told by the rules alone: the room above its liquid, a fraction of a unit mixed with the rim, was too thin to show the glass (raisePaleTops now reads such a run as liquid, as a hypothesis the rules check, where the run looks like no glass)"},
		{20261290783965, false, "a lid, a grey panel round a white padlock, read as two units of grey liquid under a cork, beside grey hidden boxes (refused by badgeOnPanel: a cork is never its liquid's colour, and the band between is thinner than a unit)"},
		{20261290783775, false, "a mystery board of discs with \"?\", a grey run read as three units of a colour beside them, the rules kept by hidden units told by the rules alone (refused since glyphs on grey boxes are told: the run's units are read hidden, and the reading then breaks the rules)"},
		{85000348, false, "a small board (250 pixels wide) of 21 mystery tubes of hatched boxes, four of them found, read as tubes of 4 under a unit of height: with hidden units told by the rules alone on fewer than minHeadroomTubes tubes, the height above them is not taken for headroom even where the units in all fill no whole tubes of it"},
		{20261293783701, false, "a mystery board of grey boxes with \"?\", tubes standing close, the lowest unit in each round foot that the boxes found round the walls left out: feet all one grey were taken for a stand (now the hidden units the glyphs count elsewhere; refused still, for a reading a half-pixel shift changes)"},
		{85000554, false, "a photo of curtains of navy cloth round a badge read as tubes of hidden units told by the rules alone under one unit in view, the badge: refused since the room above the badge looks like the units taken for hidden (clothAbove)"},
		{20261290783848, false, "a photo of a mystery board of hatched boxes, a glare lighting one box past the others' look: read as a unit of grey over hidden ones (refused by nearMissed)"},
		{20261293783883, false, "a photo of two curtains, one lantern missed, its tube read empty: refused since its inside looks like the other curtain's cloth (emptyCloth)"},
		{93000549, false, "a mystery board of dark boxes with \"?\", three tubes' boxes found round their hidden runs alone (their top units near the background's colour), read empty: refused since a run read as a whole tube's glass shows glyphs (emptyGlyphs)"},
		{20261296783998, true, "a curtain whose lantern was missed read as a full tube of its cloth's colour: that layout is refused for the folds its units hang in (foldedColumn), and the layout that found the curtain reads exactly"},
		{91000277, false, "a curtain read as two units of its cloth under its lantern, beside a mystery board told by the rules alone: refused for the folds (foldedColumn)"},
		{87000330, false, "a curtain's lantern, a light blue pane in a gilt frame, sampled as a grey mix of both and named a colour seen nowhere, beside hidden units that could hold it: refused, a lantern is coloured (lanternDoubt)"},
		{20261290783888, false, "a mystery board beside a curtain, its tubes found only inside outlines a shelf joined, read as tubes of 7 for 6 with each tube's label: a reading from parted outlines is taken only where the rules check it fully (partedConfidence)"},
		{20261301784025, false, "a mystery board over a dark patch of the background, the lowest hidden box as dark as the patch: taken for a label under each tube and cut off, tubes of 6 for 7 (a run the liquid rests on is a foot only where it looks like none of the tube's own runs)"},
		{20261302783875, false, "a small photo of a screen, its tubes read from outlines parted in the warped frame's raw edges with an empty tube more and the colours wrong (parted outlines are not looked for in photos)"},
		{85000484, false, "a staggered mystery board of discs with \"?\" read as its first row and one tube of the second: the discs' glare-lit boxes matched no cell outside the tubes (refused by unevenRows)"},
		{20261297784281, true, "the last empty tube of an unevenly spaced row missed, its gap from the row wider than the row's pitch: the place beyond the row's end is looked for from the row's narrowest gap to its widest, and the reading with it is tried"},
		{20261297784257, true, "a tube full of one colour, its one run from the box's top to its bottom, read empty: the glass it was compared with was its own inside, the only empty tube (glassBut)"},
		{20261297784236, false, "an empty tube at the end of a row standing under another row's places from the left, its outline merged with a plank's seam: refused (flushShortRow)"},
		{20261290783988, true, "a curtain's lantern, a near-black pane in a gilt frame, named after the frame's gold: a pane under lanternChroma was passed over for the frame"},
		{91000369, true, "a board of three rows read with a curtain too many, the third row flush under the second's places from the left (flushShortRow refuses that layout)"},
		{20261309783894, false, "a board of one-colour tubes, no layer boundary anywhere, read in tubes of 3 for 5: heights of 3 and 2 units read as 1.8 and 1.2 of the larger unit, each within a top unit's leeway, and the counts keep both (refused by unlayeredSpread: with the true unit every tube strays alike)"},
		{20261308784139, true, "a board of full tubes on a vertical gradient, its one empty tube's outline faint: the background beyond each end of the row matched the empty tube, and the reading with two empty tubes added there kept the rules (a place beyond a row's end is taken only where the background further out, above or below does not match the empty tube as well)"},
		{20261310784067, false, "a finished board of tubes with a number under each, joined to its outline: each number, a light figure on the dark ground, read as a hidden unit under the tube's one colour, tubes of 6 for 4 (refused by labelsAsHidden: hidden units, one at the bottom of every tube and on a run like the surroundings, are labels)"},
		{20261310784179, true, "a mystery board of dark boxes with \"?\" on a dark background, read as tubes of 5 for 6: the round tube's bottom wall, inside the box, kept the glyphs' rhythm from fitting whole units (glyphRhythm now ends a run above the wall)"},
		{20261310783944, true, "a mystery board of dark boxes with \"?\", read as tubes of 7 for 6: a glyph's widest stroke turned a row light and parted the hidden run in two, neither of which showed the glyphs' rhythm (two runs of one colour whose union does are one run now)"},
		{20261312783993, true, "a board whose every other tube's outline was lost (dark liquid against dark outlines) completed at the pitch of the tubes found, two places apart: the six tubes read made a level that kept the rules (completeRows tries half the pitch too)"},
		{20261312784307, true, "the frosted glass above a tube's liquid, over a dark patch of the background, matched a place against the frame's edge: an empty tube added there (no place within endEdgeMargin of the frame)"},
		{20261312783962, false, "a photo of a staggered board of three rows of six read as rows of 6, 5 and 3, the third under the first's places from its left end (flushShortRow looks two rows up, at rows any number of tubes short)"},
		{20261313784273, false, "a board of three rows of three whose middle row's two curtains were missed: its one tube stands under the row above's first place (flushShortRow takes rows of one tube too)"},
		{20261313783887, true, "a row of twelve tubes found from three outlines and grown four places beyond them: its last two tubes, full of colours no other tube holds, were missed and the counts held (a row grows on while liquid rests in its places)"},
		{20261313784175, false, "a tube of two units at the end of a curtained board's last row missed: liquid rests a pitch beyond the row's end, on the row's bottom (liquidBeyondEnds)"},
		{20261313784034, false, "a tube full of a light pink, its liquid from under the rim to its foot taken for a lid, read empty (fullReadEmpty)"},
		{20261314784071, false, "a mystery board of discs with \"?\" beside three sheets, read in tubes of 7 for 6, its hidden units told by the rules alone: passed at 0.52 (such readings beside curtains, wrong 8 times in 83 on session 28's runs, are refused now: inferredCoveredConfidence)"},
		{20261305783741, true, "a tube of two green units under tinted glass read as a curtain, the glass its cloth and the green its lantern: a saturated lantern only clothDE from an unknown cloth (measured and not kept in session 25) let a layer ΔE 15–25 from a dull glass pass"},
		{20261293783797, false, "a mystery board of grey boxes missing the curtains at the ends of its first row, their cloth making no outline: the row's six tubes stood centred over the row of eight below, and the hidden units told by the rules alone kept the rules (curtainAt tries the tube-sized box at a place with no candidate)"},
		{20261316784110, false, "a row of fourteen tubes whose full tubes' top layers start no higher than a fuller tube's liquid, taken for corks and left out, its hidden units told by the rules alone: five units lost, a colour's worth, kept the count (a reading whose cut runs stay unraised is refused where the rules alone tell its hidden units)"},
		{20261319784113, false, "an empty-looking tube at the end of a curtained row spaced unevenly, its box found round its walls alone, ending above the round foot where its one unit rests: with the curtains found (session 31) the counts could not tell the unit missing (footBelowEmpty)"},
		{20261320783872, true, "a curtain's lantern, an olive pane in a gilt frame hung from a gilt rod, named for the frame's gilt: the rod drew the middle of the gilt's box off the pane (the pane is now what the frame encloses)"},
		{20261320784164, false, "a doodle's arcs beside the last row of a 3-by-3 board read as an empty tube at its left end: a board with no pour read as one with a spare tube (a row off the centre of two rows one over the other is refused: offCentreRow)"},
		{20261321784377, true, "a mystery board of dark boxes with \"?\" under a glare stripe, read as tubes of 5 for 3: the glyphs' strokes parted each hidden run in three, no two of which showed the glyphs' rhythm, and the run of two, cut short by the layer's edge, measured a little under two periods (runs of one colour are now joined three or more at a time, and a period may be up to a run's 1/(2-glyphFit))"},
		{20261321784304, false, "a mystery board of discs with \"?\" in tubes of 3 with a unit of room above, read as tubes of 4 none full: the counts allow both (refused: tubes taller than the fullest by a unit, hidden units, and no colour showing more than the fullest holds)"},
		{20261321783992, false, "a photo of grey boxes whose \"?\" the JPEG and the camera blurred away, beside two sheets, read as a grey liquid at the bottom of two tubes (refused: a grey colour short of the capacity that lies only at tubes' bottoms, under other colours, is where hidden units rest)"},
		{20261322784338, false, "a lid's grey panel round its padlock read as three units of grey round one of the padlock's colour, at 1.00 beside hidden units (refused by panelRoundBadge: a grey no other tube shows, round a single unit)"},
		{20261316784260, false, "two sheets among a row of twelve read as tubes, their panels and badges as layers, and the hidden units told by the rules alone kept the rules (curtains read as tubes are refused where the rules alone tell the hidden units)"},
		{20261323784225, false, "a photo of a screen whose last tube's liquid was read half a unit low: the patch of its bottom unit, on the tube's foot and the background round it, showed a light stroke on dark, read as the board's one hidden unit, which completed the colour the unit was (refused: one unit alone read hidden)"},
		{20261324783942, true, "a mystery board of hatched boxes whose empty tube, clear glass over a cyan background, read as two units of cyan, tubes of 5 for 4 with hidden units told by the rules alone (a tube of units like the background beside it, in colours no other tube shows, is doubted where hidden units complete any colour: backgroundTube; the reading with the tube empty wins)"},
		{20261324784153, true, "a mystery board of grey boxes with a dark \"?\" in round tubes, read as tubes of 4 for 3 at 1.00: the hidden run, filling the round foot below its last box, measured 2.3 glyph periods and showed no rhythm, and a unit a third of the run fit it (the blank rows past the last glyph, beyond those over the first, are now left out where the whole run shows no rhythm)"},
		{20261323784218, false, "a mystery board of hatched boxes, its last tube missed, read as tubes of 6 for 5: the 18 units of the four tubes found make three tubes of 6, though two are full to their rims (fitCapacity raises the capacity only while the fullest tube's glass holds the units added)"},
		{20261326784003, false, "a doodle left of a mystery board's second row read as an empty tube, the row one longer than the first and sticking out at its left end (refused: a short row over a long one's places from its right end, flushShortRow)"},
		{20261326784272, true, "the background between two tubes on holders, its box overlapping both, read as an empty tube at 1.00 (the layout without it wins where the row's other boxes stand clear of each other: withoutGapBoxes' gaps)"},
		{20261326783810, true, "tinted glass over two tubes' tops, three units in all, read as a colour of its own once the glass over a third tube, a lone colour, was read as glass (glass has one tint: loneTops takes the tops alike too)"},
		{20261326784008, true, "frosted glass over a bokeh spot, above a tube's two units up to its top, read as two units of grey beside a curtain that keeps the counts from missing them (highTop: no liquid rises above the row's full tubes'; the reading with that run as glass wins)"},
		{20261326784381, true, "the same over a flask's shoulder, one unit, beside hidden units and a curtain"},
		{20261326784162, false, "two curtains of a saturated cloth, their lanterns duller than it, missed in rows spaced unevenly, the hidden units told by the rules alone keeping the counts (refused: a gap as wide as a tube and the narrowest gap each side holds a place, holes)"},
		{20261327784022, true, "an empty tube beyond the end of a row spaced unevenly missed, beside a curtain and a mystery board of dark boxes with \"?\" (emptyBeyondEnds looked for places only where the rows keep a pitch in common; a row of two tubes or more tells its gaps itself)"},
		{20261327784296, false, "a place added at the pitch of a row spaced a little unevenly, drifted off its tube onto the next one's box by a fifth of its width, read empty: the tube's top unit and three hidden units lost, the hidden units told by the rules alone keeping the counts (refused: a place's box may reach over a neighbour's no further than the row's boxes reach over each other)"},
		{20261327784284, false, "a lid's padlock, peach, named after a greyish-pink liquid ΔE 12 from it, though the two lids hold four units more than the colours in view lack, room for a colour of their own (refused: lanternDoubt takes the covered tubes' room as it takes hidden units)"},
		{20261328783804, true, "frosted glass over blobs: three units' worth of it over a green blob, up to a tube's top over one unit, read as a colour of its own, unlike the glass over the magenta the tubes above show; the counts could not check it for two lids (the glass law fitted where the glass shows tells it over the green: glassColour)"},
		{20261293783821, true, "a glare stripe crossing the edge between a brown run and a red layer, 3 by 4 pixels of peach, taken for a lantern: the tube of layers read as a curtain whose hidden units made up for its five, once the frosted glass over another tube's top was told by the glass law (refused before for that glass; speck)"},
		{85000471, false, "three tubes of faint glass on a pale background missed at a row's left end, whose other end's curtains hang their cloth above the tubes' feet: the place a pitch beyond the end, as tall as the curtain beside it, cut off the liquid resting in it, and the curtains kept the counts from missing the three (refused: a place beyond a row's end spans its tubes' height, liquidBeyondEnds)"},
		{20261328784076, true, "a mystery deal no pour has touched beside two curtains, every tube four units, the room above them a unit and a quarter tall: the curtains raised the capacity to the tubes' height, 5, the counts unable to check it (on an untouched deal the curtains hide full tubes: the units in view make whole tubes, 52 of them no tubes of 5, dealtUntouched)"},
		{20261330783845, false, "a curtain's folded cloth read as a full tube of two colours beside a mystery deal, its lantern as a layer: the hidden units made up the counts at 1.00, and the curtain the frame moved by half a pixel found kept them too (refused: curtainReadAsLiquid)"},
		{20261330784336, false, "a small blurred curtain's lantern ΔE 20.5 from the green in view, just far enough to name a colour of its own that the hidden units could hold (refused: lanternDoubt)"},
		{20261330784352, false, "a place beyond a row's end added for a bokeh spot resting in it, whose headroom, the background, stood for an empty tube's look: a phantom empty tube matched at the next row's end, and the two vouched for each other as glass (refused: emptyTemplate leaves out tubes added for their liquid alone)"},
		{20261331784166, false, "the same beside a board of discs with \"?\", the curtain reading refused only for the hidden units the rules alone tell beside it (refused: curtainReadAsLiquid takes any reading that breaks no rule)"},
		{20261331783913, false, "three sheets beside one open tube of two layers, 2 and 4 units, read as 1 and 2 in tubes of 3 at 0.70: every layer even, nothing counts the units (refused: too few layers in view to tell the unit's height beside curtains, layersInView)"},
		{20261331784221, false, "the wood under a curtained tube's foot read as an empty tube in a row of its own reaching into that tube's box (refused: overlappingRows)"},
		{20261331783909, false, "flasks whose necks made their boxes five units tall: 12 units, hidden ones told by the rules alone, read as tubes of 3 with a colour all hidden, though tubes of 4 take them too (refused: dividingBetween)"},
		{20261331784062, true, "a photo of a row of tubes as far apart as they are wide: the gaps between them, bounded by their walls, read as empty tubes where they touched a tube on one side, and added again in the gaps after those overlapping both were left out, passed at 1.00 (wedged: a box or a place filling a gap wall to wall is none)"},
		{20261332784163, false, "a small photo's bright blur half a tube below a row's end read as an empty tube in a row of its own, level with that row, which made a board of three full tubes a level to solve at 1.00 (refused: levelAcrossRows)"},
		{20261333784299, true, "a row's last empty tube missed on wood, its thick green outline about as grey as the wood: the grey levels matched the empty tube found only by the grain seen through the glass, 0.62, and the reading without it kept the rules at 1.00 (emptyMatchAt compares the colours too)"},
		{20261327783978, false, "two sheets beside a mystery board of grey boxes with \"?\" that look like their cloth: the layout with them read as tubes, their panels and badges as four units in view each, kept the rules at 1.00, the hidden units told by their glyphs (refused: a tube showing all its units on a board whose every other tube is full with its top alone in view, shownAtStart)"},
		{20261338784291, true, "a mystery board of tubes of 3, two boxes with \"?\" under one unit each, read as tubes of 4 at 1.00: a glare stripe down the boxes, ending above a thick dark outline as dark as they, left no blank row above the first glyph or past the last, so the glyphs were not counted, and the run with the outline measured three units of the meniscus-shortened top (inkProfile leaves the stripe out)"},
		{20261339784420, true, "a blob of the background a pitch beyond a row's end, taken for a tube for the liquid it seemed to hold, read as an empty tube once the tubes were read together (the glass law took its run for glass): an empty tube more than the level has, at 1.00 (interpret leaves such places out)"},
		{20261339784048, true, "a place a row's end beyond, 6 pixels off the frame's edge, matched the glass above a tube's liquid (no empty tube found) for a bright blob spanning both: an empty tube more than the level has, at 1.00, the place further out, off the frame, unable to say the match was the background's (emptyBeyondEnds wants room for half a tube's width out)"},
		{20261340784245, false, "grey boxes with no mark under a unit or three, beside two curtains, read as a grey liquid at 0.70: its four units make a whole colour, and the curtains keep the counts from telling it from hidden units (refused: a whole grey colour at tubes' bottoms beside curtains, bottomsOnly with singles)"},
		{20261340783896, false, "a row of five tubes read as four, the empty tube at its start missed over a dark blob, its dark outline lost on it: an empty tube fewer keeps the rules, at 1.00 (refused: the board stands half a pitch off the screen's centre, offCentreBoard)"},
		{20261341784277, false, "a row's two empty tubes, light outlines on a light gradient, missed: the place past the row's end snapped to an outline made of one empty tube's glare stripe and the next one's wall, one empty tube read where two stand, at 1.00 (refused: an outline past the ends must be centred on the place itself, not where the snap moved it; the board then stands a pitch off the screen's centre)"},
		{20261341784192, false, "tubes of 7 read as tubes of 6 beside a lid, every tube full, their top units near the background and their outlines' tops lost with them, at 0.70: the lid's box stood a unit above theirs (refused: coverAboveRow)"},
		{20261341784111, false, "a photo of a board of two colours, no tube showing two layers, tubes of 7 read as tubes of 6 at 1.00: heights of 1, 6 and 7 units read as 1, 5 and 6 stray 0.29 units apart (refused: unlayeredSpreadMax 0.25)"},
		{20261341784202, true, "hatched hidden boxes under a wide glare stripe ending inside the bottom unit: the stripe's foot parted the hidden run, and its short gap fitted a unit 5/6 of the true one, tubes of 5 read as tubes of 6 at 0.70 (stripeFoot joins the run)"},
		{20261341784123, false, "tinted glass over a dark background raised as a colour seen nowhere else in three tubes, 1+3+1 units making a whole colour beside hidden units and a curtain, at 0.70, while another tube's room showed the same glass (refused: raisePaleTops compares the rooms too)"},
		{20261341784113, false, "a photo of tinted glass over bokeh: the glass over two tubes' liquid, up to their tops, read as a colour of two units, hidden units and a lid keeping the counts from refusing it, at 0.70 (refused: roomColour)"},
		{20261342784076, false, "a photo of a mystery deal, no pour made, where one tube's five hidden discs, blurred in a small photo, read as a colour no other tube shows, under its top unit, at 0.70: hidden units complete any colour short of the capacity (refused: hiddenAsColour)"},
		{20261343783949, true, "a tube of two units under frosted glass, the grey room over half its cloth area, read as a curtain, a bubble on its blue layer taken for the lantern, at 0.70 on a board with no cover (a layer across the box is no curtain: bandAcross)"},
		{20261343784039, false, "a lid named by its padlock's dark shackle, the teal body below it too wide for a lantern, at 0.70 (refused: a lantern has cloth below it, within clothDE, flankedLantern)"},
		{20261343783862, true, "a liquid near the background alone in two tubes and on a third's top read as their glass, no empty tube in view to show the glass, at 0.50 (the room above the other tubes' liquid shows it, raisePaleTops)"},
		{20261344783900, false, "two curtains in a row spaced unevenly, the boxes at their places off their cloths' middles, missed and read as empty tubes at 1.00, hidden units making up the counts (refused: the lantern is looked for down the column its colour shows in, lanternColumn)"},
		{20261344784124, false, "frosted glass over a tube's two units, up to its top, read as a colour of four units beside curtains, at 0.70, while other tubes' rooms showed the same glass (refused: roomColour beside curtains as beside hidden units)"},
		{20261344784197, false, "a tube missed among lids, found again as an empty tube in the row's gap but in a box only as tall as the glass above another tube's liquid, its bottom unit cut off, at 0.70 (refused: the place stands as tall as the row's tubes, asTall)"},
		{20261346784347, true, "a tube of three navy units under tinted glass, its outline missed, found at the row's pitch as a curtain: the glass for cloth, the glare on the navy layer's top for a lantern, at 0.70 (a curtain found among the candidates is flanked by cloth and hangs it below its lantern too: flankedLantern)"},
		{20261346784064, false, "a hidden unit in a tube's round foot, as dark as the glass above it, missed under the tube's one blue unit beside lids and tubes in another row, at 0.70 (refused: the board's tubes of one size compared for where their liquid rests, unevenBottom)"},
		{20261347784084, false, "frosted glass over a dark blob of the background, above two tubes' two purple units, read as two grey units in each, a whole colour, at 1.00 (refused: glassColour, the glass law fitted within glassLawMiss of the rooms over a blotched background)"},
		{20261347784390, false, "a row of a tube between two curtains read as that tube alone, the curtains missed, over a row of three, at 1.00 (refused: shortAbove)"},
		{20261348783991, false, "a small mystery board of grey boxes with a dark \"?\", the glyphs blurred to 21 levels under the box, told by the rules alone with a unit 4/5 of the true one: tubes of 4 read as 5, at 0.70 (refused: the faint glyphs' rhythm down the hidden runs counts three, blurredMiscount)"},
		{20261348784086, false, "a mystery board of hatched boxes, the lowest hidden unit shortened by the round foot, told by the rules alone with a unit 6/5 of the true one: tubes of 5 read as 4, at 0.70 (refused: the top runs in view are no whole units of it, topRunsMisfit)"},
		{20261348784273, false, "a lid between mystery tubes in a row spaced unevenly, missed, its place no hole at the row's pitch, at 0.70 (refused: the image moved by half a pixel finds it, in a reading refused itself, curtainInGap)"},
		{20261348784176, false, "an empty tube of clear glass at a row's end missed, the row one short of the row above and spaced unevenly, at 1.00: its places matched none of the row above's (refused: the short row's centre stands half a pitch to the flush end's side, flushShortRow)"},
		{20261349784424, false, "the middle row of three, five mystery tubes of grey boxes with \"?\", missed: ten tubes read at 1.00, three tops of near colours grouped into one complete colour so the hidden units' look was never checked outside the tubes (refused: a gap taller than a tube between rows, rowGapMissed)"},
	} {
		scene, err := render.Random(tc.seed)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Read(scene.Data)
		switch {
		case err == nil && r.Level.Canonical() != scene.Truth.Level.Canonical():
			t.Errorf("seed %d (%s): silently wrong:\ngot  %s\nwant %s", tc.seed, tc.kind, r.Level.Compact(), scene.Truth.Level.Compact())
		case err != nil && tc.exact:
			t.Errorf("seed %d (%s): %v; want the level read exactly", tc.seed, tc.kind, err)
		}
	}
}

// TestCornersOnceSilentlyWrong reads scenes of the corner sets (one factor fixed) and of
// the fresh seeds that each once gave a wrong level with no error. Each must now read exactly
// or be refused.
func TestCornersOnceSilentlyWrong(t *testing.T) {
	lid, discs := map[string]string{"cover": "lid"}, map[string]string{"hidden": "glyph-circle"}
	for _, tc := range []struct {
		seed  uint64
		fixed map[string]string
		kind  string
	}{
		// A lid's panel, a run at the box's top over the cloth, taken for a tube full of one
		// colour by the reading with every such run raised, the hidden units told by the
		// rules alone making up the counts: such a reading is not kept (see readFrom).
		{84000311, lid, "a lid's panel raised as a tube full of one colour"},
		{95000425, discs, "the same beside discs with \"?\""},
		// A colour no other tube shows, short of the capacity, read as glass at a tube's foot
		// (loneFeet) or top (loneTops), hidden units told by the rules alone making up the
		// counts. Both readings assume a board without hidden units, where the count asks for
		// the colour to go; hidden units would complete it instead, so such readings are kept
		// there only on other evidence (see readFrom: loneFeet's spots, oneTint).
		{20261323783983, nil, "a full tube of brown, its top unit missed, its three units read as empty glass"},
		{95000405, discs, "top units of three colours seen once, under tubes' rims, read as tinted glass above the liquid"},
		{84000508, lid, "tinted glass over a dark blob, above two tubes' units, read as two olive units in each, a whole colour beside lids, at 0.70: the glass law fitted over pink strays over the dark blob (refused: lawTopDE)"},
		{83000464, map[string]string{"cover": "sheet"}, "a tube's top layer of two units, starting at its box's top, left out as a cork over a tube half full, beside three sheets that keep the counts from missing it (refused: corkedShort)"},
	} {
		scene, err := render.RandomWith(tc.seed, tc.fixed)
		if err != nil {
			t.Fatal(err)
		}
		if r, err := Read(scene.Data); err == nil && r.Level.Canonical() != scene.Truth.Level.Canonical() {
			t.Errorf("seed %d (%s): silently wrong:\ngot  %s\nwant %s", tc.seed, tc.kind, r.Level.Compact(), scene.Truth.Level.Compact())
		}
	}
}

// TestNoSurface reads scenes whose glass, over a background that darkens or lightens down the
// tube, was read as liquid on top of a tube's liquid, silently: hidden units and covers left
// the counts unchecked. A liquid's top is an edge; the glass changes by degrees. The level
// read must be the truth; a reading refused for low confidence carries it too (105000334's
// hidden units, told by the rules alone beside a curtain, are refused since session 29).
func TestNoSurface(t *testing.T) {
	for _, tc := range []struct {
		seed  uint64
		cover string
		kind  string
	}{
		{105000334, "curtain", "tinted glass over blobs, darker down a tube holding one unit, read as three units of a colour no other tube holds"},
		{105000473, "lid", "frosted glass over a pink glow read as a pink unit over a tube's one yellow unit"},
	} {
		scene, err := render.RandomWith(tc.seed, map[string]string{"cover": tc.cover})
		if err != nil {
			t.Fatal(err)
		}
		r, err := Read(scene.Data)
		switch {
		case err != nil && solver.ErrorCode(err) != solver.CodeLowConfidence:
			t.Errorf("seed %d (%s): %v; want the level read", tc.seed, tc.kind, err)
		case r.Level.Canonical() != scene.Truth.Level.Canonical():
			t.Errorf("seed %d (%s): read wrong (error %v):\ngot  %s\nwant %s", tc.seed, tc.kind, err, r.Level.Compact(), scene.Truth.Level.Compact())
		}
	}
}

// TestWholeGlassTube: only a tube of one colour, found in no other tube, in the glass's tint is
// taken for empty glass read as liquid.
func TestWholeGlassTube(t *testing.T) {
	glass := lab{L: 50, A: 10, B: 20}
	near := unitSample{color: lab{L: 45, A: 12, B: 22}}
	far := unitSample{color: lab{L: 50, A: -40, B: 20}}
	for _, tc := range []struct {
		name    string
		tubes   [][]string
		samples []unitSample
		want    int
	}{
		{"one colour in the tint", [][]string{{"a", "b"}, {"c", "c"}}, []unitSample{far, far, near, near}, 1},
		{"one colour off the tint", [][]string{{"a", "b"}, {"c", "c"}}, []unitSample{near, near, far, far}, -1},
		{"two colours in the tint", [][]string{{"a", "b"}, {"c", "d"}}, []unitSample{far, far, near, near}, -1},
		{"a colour in two tubes", [][]string{{"a", "c"}, {"c", "c"}}, []unitSample{far, near, near, near}, -1},
		{"not full", [][]string{{"a", "b"}, {"c"}}, []unitSample{far, far, near}, -1},
		{"hidden", [][]string{{"a", "b"}, {"?", "?"}}, []unitSample{far, far, near, near}, -1},
	} {
		if got := wholeGlassTube(tc.tubes, tc.samples, 2, []lab{glass}); got != tc.want {
			t.Errorf("%s: got tube %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestTranslucentOver: glass of at most half opacity moves the background only part of the way
// to its tint, so some colours no glass over a background can show.
func TestTranslucentOver(t *testing.T) {
	rgb := func(r, g, b uint8) lab { return labFromRGB(r, g, b) }
	for _, tc := range []struct {
		name      string
		top, back lab
		want      bool
	}{
		{"white glass over navy", rgb(70, 75, 110), rgb(20, 25, 70), true},
		{"frosted glass over grey", rgb(190, 190, 195), rgb(150, 150, 150), true},
		{"rose tint over mint", rgb(200, 200, 190), rgb(170, 230, 200), true},
		{"lavender over gold", rgb(160, 130, 240), rgb(190, 160, 0), false},
		{"red over white", rgb(220, 30, 30), rgb(250, 250, 250), false},
	} {
		if got := translucentOver(tc.top, tc.back); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestPairHalves: the two sides of a hidden box split by its glyph join into one box; regions
// apart, at other heights, or too wide together stay apart.
func TestPairHalves(t *testing.T) {
	const width = 60
	left := image.Rect(90, 189, 117, 270)
	for _, tc := range []struct {
		name   string
		halves []image.Rectangle
		want   []image.Rectangle
	}{
		{"split by a disc", []image.Rectangle{image.Rect(126, 189, 153, 270), left}, []image.Rectangle{image.Rect(90, 189, 153, 270)}},
		{"too far apart", []image.Rectangle{left, image.Rect(140, 189, 167, 270)}, nil},
		{"at another height", []image.Rectangle{left, image.Rect(126, 250, 153, 330)}, nil},
		{"too wide together", []image.Rectangle{image.Rect(60, 189, 117, 270), image.Rect(126, 189, 160, 270)}, nil},
		{"each joins once", []image.Rectangle{left, image.Rect(126, 189, 153, 270), image.Rect(160, 189, 187, 270)}, []image.Rectangle{image.Rect(90, 189, 153, 270)}},
	} {
		if got := pairHalves(tc.halves, width); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestStackedHalves(t *testing.T) {
	const width, unit = 50, 27.0
	disc := func(y int) image.Rectangle { return image.Rect(49, y, 70, y+21) }
	for _, tc := range []struct {
		name   string
		halves []image.Rectangle
		want   []image.Rectangle
	}{
		{"three discs", []image.Rectangle{disc(434), disc(378), disc(406)}, []image.Rectangle{image.Rect(49, 378, 70, 455)}},
		{"two discs, under two units", []image.Rectangle{disc(378), disc(406)}, nil},
		{"too far apart", []image.Rectangle{disc(378), disc(420), disc(462)}, nil},
		{"off the column", []image.Rectangle{disc(378), disc(406).Add(image.Pt(15, 0)), disc(434)}, nil},
		{"too narrow (between tubes)", []image.Rectangle{image.Rect(108, 270, 114, 321), image.Rect(108, 339, 114, 348), image.Rect(108, 351, 114, 399)}, nil},
	} {
		if got := stackedHalves(tc.halves, width, unit); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestNearTubes: a box of the hidden units' look counts as a tube missed only within a row's
// reach of the tubes found, above, below or beside them; a banner's letters at the screen's
// foot do not.
func TestNearTubes(t *testing.T) {
	tubes := []image.Rectangle{image.Rect(70, 580, 96, 668), image.Rect(108, 580, 134, 668), image.Rect(146, 580, 172, 668)}
	beside := image.Rect(184, 600, 210, 650)
	rowBelow := image.Rect(70, 700, 96, 790)
	rowAbove := image.Rect(70, 440, 96, 500)
	banner := image.Rect(240, 1148, 256, 1160)
	got := nearTubes([]image.Rectangle{beside, banner, rowBelow, rowAbove}, tubes)
	if want := []image.Rectangle{beside, rowBelow, rowAbove}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestDropTwinRows: a box in a row of its own that covers half of a box of a fuller row is
// that tube found again (a bulb's round outline under its walls) and goes; boxes that only
// touch, or rows of one size side by side, stay.
func TestDropTwinRows(t *testing.T) {
	tube := func(x, y int) image.Rectangle { return image.Rect(x, y, x+23, y+75) }
	row := []image.Rectangle{tube(60, 634), tube(109, 634), tube(159, 634)}
	for _, tc := range []struct {
		name string
		rows [][]image.Rectangle
		want [][]image.Rectangle
	}{
		{"bulb outline in its own row", [][]image.Rectangle{row, {image.Rect(57, 642, 88, 709)}}, [][]image.Rectangle{row}},
		{"twin row first", [][]image.Rectangle{{image.Rect(57, 642, 88, 709)}, row}, [][]image.Rectangle{row}},
		{"a row below", [][]image.Rectangle{row, {tube(60, 720)}}, [][]image.Rectangle{row, {tube(60, 720)}}},
		{"touching only", [][]image.Rectangle{row, {image.Rect(83, 634, 100, 709)}}, [][]image.Rectangle{row, {image.Rect(83, 634, 100, 709)}}},
	} {
		got := dropTwinRows(tc.rows)
		if !slices.EqualFunc(got, tc.want, func(a, b []image.Rectangle) bool { return slices.Equal(a, b) }) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestWideGapRefused: a mystery board of three rows of four whose middle tubes left no
// outline read as its four corner tubes, rows with a pitch of four tube widths, a level of 3
// units that a curtain keeps the counts from checking: returned at 0.70. Games space their
// tubes less than three widths apart, so such a row has lost tubes, and the reading is refused.
func TestWideGapRefused(t *testing.T) {
	sc, err := render.Random(20261300784295)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Read(sc.Data)
	if err == nil && r.Level.Canonical() != sc.Truth.Level.Canonical() {
		t.Errorf("silently wrong:\ngot  %s\nwant %s", r.Level.Compact(), sc.Truth.Level.Compact())
	}
	if got := wideGap([][]image.Rectangle{{image.Rect(0, 0, 10, 30), image.Rect(40, 0, 50, 30)}}); got != -1 {
		t.Errorf("a gap of three widths: row %d, want none", got)
	}
	if got := wideGap([][]image.Rectangle{{image.Rect(0, 0, 10, 30)}, {image.Rect(0, 40, 10, 70), image.Rect(41, 40, 51, 70)}}); got != 1 {
		t.Errorf("a gap of 3.1 widths in row 2: row %d, want 1", got)
	}
}

// TestCurtainReadAsLiquid: a tube read as layers in colours no other tube shows, where
// another reading that keeps the rules finds a curtain, is the curtain's cloth as likely as
// liquid; a tube sharing a colour with another, a hidden unit, or a curtain that stands
// elsewhere says nothing.
func TestCurtainReadAsLiquid(t *testing.T) {
	box := func(x int) image.Rectangle { return image.Rect(x, 100, x+40, 300) }
	h := solver.Hidden
	liquid := &Reading{
		Level: &solver.Level{Capacity: 4, Tubes: [][]solver.Color{{1, 1, 2, 1}, {h, h, h, 3}, {h, h, h, 4}, {}}},
		Tubes: []Tube{{Box: box(0)}, {Box: box(60)}, {Box: box(120)}, {Box: box(180)}},
	}
	curtained := func(x int) *Reading {
		return &Reading{
			Level: &solver.Level{Capacity: 4, Tubes: [][]solver.Color{{}, {h, h, h, 3}, {h, h, h, 4}, {}}, Curtains: []solver.Color{3, 0, 0, 0}},
			Tubes: []Tube{{Box: box(x)}, {Box: box(60)}, {Box: box(120)}, {Box: box(180)}},
		}
	}
	if got := curtainReadAsLiquid(liquid, curtained(6)); got != 0 {
		t.Errorf("cloth read as two colours of its own, curtain found there: tube %d, want 0", got)
	}
	if got := curtainReadAsLiquid(liquid, curtained(25)); got != -1 {
		t.Errorf("a curtain over under 60%% of the box: tube %d, want -1", got)
	}
	shared := *liquid
	shared.Level = &solver.Level{Capacity: 4, Tubes: [][]solver.Color{{1, 1, 3, 1}, {h, h, h, 3}, {h, h, h, 4}, {}}}
	if got := curtainReadAsLiquid(&shared, curtained(0)); got != -1 {
		t.Errorf("a layer in a colour another tube shows: tube %d, want -1", got)
	}
	underHidden := *liquid
	underHidden.Level = &solver.Level{Capacity: 4, Tubes: [][]solver.Color{{h, 1, 2, 1}, {h, h, h, 3}, {h, h, h, 4}, {}}}
	if got := curtainReadAsLiquid(&underHidden, curtained(0)); got != -1 {
		t.Errorf("a tube with a hidden unit: tube %d, want -1", got)
	}
}

// TestCurtainInGap: a curtain some layout found counts as a covered tube missed only where it
// overlaps no tube of the reading and stands between two of them, at their height.
func TestCurtainInGap(t *testing.T) {
	box := func(x, y int) image.Rectangle { return image.Rect(x, y, x+40, y+200) }
	r := &Reading{Tubes: []Tube{{Box: box(0, 100)}, {Box: box(60, 100)}, {Box: box(180, 100)}, {Box: box(240, 100)}}}
	for _, tc := range []struct {
		name  string
		cover image.Rectangle
		want  bool
	}{
		{"in the gap", box(120, 100), true},
		{"in the gap, shorter", image.Rect(122, 130, 158, 290), true},
		{"over a tube", box(65, 100), false},
		{"reaching into a tube", box(90, 100), false},
		{"beyond the row's end", box(300, 100), false},
		{"before the row's start", image.Rect(-60, 100, -20, 300), false},
		{"in the gap but below the row", box(120, 400), false},
	} {
		if got := curtainInGap(r, []image.Rectangle{tc.cover}); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if curtainInGap(r, nil) {
		t.Errorf("no cover found: true, want false")
	}
}

// TestTopRunsMisfit: a top run from a colour change to the liquid's top fits whole units of
// the unit (shortTopRun short, or up to tallTop taller); columns without a change, or empty,
// count neither way.
func TestTopRunsMisfit(t *testing.T) {
	col := func(top, change int) column {
		return column{box: image.Rect(0, 0, 40, 200), bottom: 190, top: top, bounds: []int{change}}
	}
	cols := []column{col(107, 120), col(106, 120), col(106, 120), {box: image.Rect(0, 0, 40, 200)}, {box: image.Rect(0, 0, 40, 200), bottom: 190, top: 120}}
	if n, k := topRunsMisfit(cols, 14); n != 0 || k != 3 {
		t.Errorf("top runs of 13 and 14 pixels, unit 14: %d of %d misfit, want 0 of 3", n, k)
	}
	if n, k := topRunsMisfit(cols, 16.5); n != 3 || k != 3 {
		t.Errorf("top runs of 13 and 14 pixels, unit 16.5: %d of %d misfit, want 3 of 3", n, k)
	}
}

// TestOverlappingRows: boxes of two rows reaching into each other by more than a tenth of a
// box's height, across half a box's width, are two tubes in one place; rows apart, or
// staggered clear of each other, are not. levelAcrossRows: a box more than half its height
// alongside another row's box stands in that row's band, wherever it stands across.
func TestOverlappingRows(t *testing.T) {
	tube := func(x, y int) image.Rectangle { return image.Rect(x, y, x+60, y+200) }
	top := []image.Rectangle{tube(0, 0), tube(100, 0), tube(200, 0)}
	overlapping, level := "overlappingRows", "levelAcrossRows"
	for _, tc := range []struct {
		check, name string
		rows        [][]image.Rectangle
		i, j        int
	}{
		{overlapping, "rows apart", [][]image.Rectangle{top, {tube(0, 230), tube(100, 230)}}, -1, -1},
		{overlapping, "a rim reaching a little into the row above", [][]image.Rectangle{top, {tube(0, 185), tube(100, 185)}}, -1, -1},
		{overlapping, "a box under a tube's foot, reaching 30 pixels into it", [][]image.Rectangle{top, {tube(0, 250), tube(100, 250)}, {tube(203, 170)}}, 2, 5},
		{overlapping, "beside it, under half its width", [][]image.Rectangle{top, {tube(235, 170)}}, -1, -1},
		{level, "rows apart", [][]image.Rectangle{top, {tube(0, 230), tube(100, 230)}}, -1, -1},
		{level, "staggered, reaching a fifth into the row above", [][]image.Rectangle{top, {tube(50, 160), tube(150, 160)}}, -1, -1},
		{level, "beside the row's end, 90 pixels lower", [][]image.Rectangle{top, {tube(300, 90)}}, 0, 3},
		{level, "a third row before the first tube, 90 pixels lower", [][]image.Rectangle{top, {tube(0, 250)}, {tube(-100, 90)}}, 0, 4},
		{level, "the same 110 pixels lower", [][]image.Rectangle{top, {tube(0, 250)}, {tube(-100, 110)}}, -1, -1},
	} {
		check := overlappingRows
		if tc.check == level {
			check = levelAcrossRows
		}
		if i, j := check(tc.rows); i != tc.i || j != tc.j {
			t.Errorf("%s, %s: %d, %d; want %d, %d", tc.check, tc.name, i, j, tc.i, tc.j)
		}
	}
}

// TestDividingBetween: the least capacity between two that whole tubes of it take the units.
func TestDividingBetween(t *testing.T) {
	for _, tc := range []struct{ total, lo, hi, want int }{
		{12, 3, 5, 4}, {12, 3, 4, 0}, {15, 3, 6, 5}, {14, 3, 7, 0}, {24, 3, 7, 4},
	} {
		if got := dividingBetween(tc.total, tc.lo, tc.hi); got != tc.want {
			t.Errorf("%d units between %d and %d: %d, want %d", tc.total, tc.lo, tc.hi, got, tc.want)
		}
	}
}

// TestLayersInView: runs of one colour in view, hidden units and curtains aside.
func TestLayersInView(t *testing.T) {
	tubes := [][]string{{"yellow", "yellow", "blue", "blue"}, {"curtain:blue"}, {"?", "?", "red"}, {}, {"red", "blue", "red"}}
	if got := layersInView(tubes); got != 6 {
		t.Errorf("got %d layers, want 6", got)
	}
}
