package demo

import (
	"fmt"
	"strconv"
	"strings"
)

// galleryPage returns what the trap site answers for any path under /gallery/:
// a server that maps every path below a directory to one page, whose
// relative link then leads one level deeper each time (/gallery/photos/,
// /gallery/photos/photos/, ...).
func galleryPage() page {
	return page{title: "Gallery", text: "Our photos, one folder deeper each time you look.", links: []string{"photos/", "/"}}
}

// calendarPage renders any path under /calendar/ as a page of an endless
// calendar: a month links to the next and previous month and to its days, a
// day links to the next day, so there is always a deeper or later page.
func calendarPage(path string) page {
	parts := strings.FieldsFunc(strings.TrimPrefix(path, "/calendar/"), func(r rune) bool { return r == '/' })
	nums := make([]int, 0, 3)
	for _, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			break
		}
		nums = append(nums, n)
	}
	year, month := 2026, 11
	if len(nums) >= 1 {
		year = nums[0]
	}
	if len(nums) >= 2 && nums[1] >= 1 && nums[1] <= 12 {
		month = nums[1]
	}
	next := func(y, m int) (int, int) {
		if m == 12 {
			return y + 1, 1
		}
		return y, m + 1
	}
	prev := func(y, m int) (int, int) {
		if m == 1 {
			return y - 1, 12
		}
		return y, m - 1
	}
	ny, nm := next(year, month)
	py, pm := prev(year, month)
	links := []string{
		fmt.Sprintf("/calendar/%d/%02d/", ny, nm),
		fmt.Sprintf("/calendar/%d/%02d/", py, pm),
	}
	if len(nums) >= 3 {
		day := nums[2]
		links = append(links, fmt.Sprintf("/calendar/%d/%02d/%02d/", year, month, day+1))
		return page{title: fmt.Sprintf("Events on %d-%02d-%02d", year, month, day), text: "No events.", links: links}
	}
	for d := 1; d <= 3; d++ {
		links = append(links, fmt.Sprintf("/calendar/%d/%02d/%02d/", year, month, d))
	}
	return page{title: fmt.Sprintf("Events in %d-%02d", year, month), text: "No events this month.", links: links}
}
